import ArgumentParser
import WatcherCore
import WatcherJSON
import WatcherStorage

/// `watcher blocks`: the most recent blocks the running watcher has stored, newest first.
struct BlocksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blocks",
        abstract: "List the most recent blocks, newest first (from the local store)."
    )

    @OptionGroup var options: ConfigOptions

    @Option(help: "How many blocks.")
    var limit = 20

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: "The chain.")
    var chain = "btc"

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let config = try options.load(needsSinks: false)
        let store = try StoreAccess.reader(config)
        let chain = self.chain
        let limit = self.limit
        let headers = try store.read { try $0.recentHeaders(chain: chain, limit: limit) }
        await store.close()
        if json {
            Output.out(JSONValue.array(headers.map(ExplorerJSON.block)).serialized(pretty: true))
            return
        }
        guard !headers.isEmpty else {
            Output.out("no blocks stored yet for \(chain); `watcher run` with a blocks watch fills them in")
            return
        }
        var rows = [["HEIGHT", "TIME (UTC)", "AGE", "TXS", "HASH"]]
        for header in headers {
            let time = ExplorerJSON.time(header.time).stringValue ?? ""
            rows.append([
                "\(header.height)", time, ExplorerJSON.relative(header.time), header.txCount.map(String.init) ?? "?",
                header.hash,
            ])
        }
        Output.out(ExplorerJSON.table(rows))
    }
}
