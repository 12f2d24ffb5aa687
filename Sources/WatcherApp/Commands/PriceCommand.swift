import ArgumentParser
import WatcherCore
import WatcherJSON
import WatcherStorage

/// `watcher price`: the latest stored BTC prices.
struct PriceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price",
        abstract: "Show the latest BTC price in USD, GBP and EUR with its time and source provider."
    )

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let config = try options.load(needsSinks: false)
        let store = try StoreAccess.reader(config)
        let quotes = try store.read { try $0.prices() }
        await store.close()
        if json {
            Output.out(JSONValue.array(quotes.map(ExplorerJSON.price)).serialized(pretty: true))
            return
        }
        guard !quotes.isEmpty else {
            Output.out("no prices stored yet; `watcher run` with a price watch fills them in")
            return
        }
        var rows = [["CURRENCY", "PRICE", "TIME (UTC)", "AGE", "PROVIDER"]]
        for quote in quotes {
            let time = ExplorerJSON.time(quote.time).stringValue ?? ""
            rows.append([quote.currency, "\(quote.price)", time, ExplorerJSON.relative(quote.time), quote.provider])
        }
        Output.out(ExplorerJSON.table(rows))
    }
}
