import ArgumentParser
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherRequests
import WatcherStorage

/// `watcher wallets next <id>`: hands out the wallet's next receive address, recorded in the store so the window
/// covers it; works while `watcher run` runs.
struct WalletsNextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Hand out a wallet's next unused receive address (recorded as issued, so it is followed).",
        discussion: """
            The lowest receive index above both the last used and the last issued one. It is recorded in the store \
            with its label before it is printed, and the wallet's window grows to cover it and `gap` more, so a \
            running `watcher run` follows it from its next block or round.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The wallet's watch id.")
    var id: String

    @Option(
        help: """
            A label for the address (an invoice or customer), kept with it and put in the bitcoin: URI; at most 100 \
            characters.
            """
    )
    var label: String?

    @Flag(help: "Print JSON: {\"wallet\", \"branch\", \"index\", \"address\", \"uri\"}.")
    var json = false

    func run() async throws {
        // Before the store is opened: a refused label uses up no index.
        if let label, let problem = LabelRule.problem(label) { throw CommandFailure.usage("--label: \(problem)") }
        let config = try options.load(needsSinks: false)
        let watch = try WalletsStore.watch(id, in: config)
        guard let wallet = WalletBook.load(chain: watch.chain, watches: [watch]).wallets[watch.id] else { return }
        let store = try StoreAccess.writer(config)
        let issued: WalletIssuer.Issued
        do {
            issued = try await WalletIssuer.next(wallet, chain: watch.chain, label: label, store: store)
        } catch {
            await store.close()
            throw CommandFailure.runtime("could not record the address: \(error)")
        }
        await store.close()
        if json {
            Output.out(issued.json.serialized(pretty: true))
        } else {
            Output.out("\(issued.address) (\(issued.branch) \(issued.index))\n\(issued.uri)")
        }
    }
}
