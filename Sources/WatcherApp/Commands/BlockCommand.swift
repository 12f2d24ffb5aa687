import ArgumentParser
import WatcherCore
import WatcherJSON
import WatcherStorage

/// `watcher block <height|hash>`: one block's details, from the store or through the configured providers.
struct BlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "block",
        abstract: "Show a block by height or hash (from the store, else through the configured providers)."
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "A height or a 64-hex block hash.")
    var id: String

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: "The chain.")
    var chain = "btc"

    func validate() throws {
        guard BlockID(id) != nil else {
            throw ValidationError("invalid block \"\(id)\": expected a height or a 64-hex hash")
        }
    }

    func run() async throws {
        let config = try options.load(needsSinks: false)
        guard let blockID = BlockID(id) else { throw CommandFailure.usage("invalid block \(id)") }
        let chain = self.chain
        var header: BlockHeader?
        if let store = try? StoreAccess.reader(config) {
            header = try store.read { txn in
                switch blockID {
                case .height(let height): try txn.header(chain: chain, height: height)
                case .hash(let hash): try txn.header(chain: chain, hash: hash)
                }
            }
            await store.close()
        }
        let found: BlockHeader
        if let header {
            found = header
        } else {
            do {
                found = try await ProviderSession.with(config) { session in
                    try await session.ask(chain: chain) { try await $0.block(blockID) }
                }
            } catch let error as ProviderError {
                throw CommandFailure.runtime(error.description)
            }
        }
        if json {
            Output.out(ExplorerJSON.block(found).serialized(pretty: true))
            return
        }
        let time = ExplorerJSON.time(found.time).stringValue ?? ""
        Output.out(
            ExplorerJSON.table([
                ["hash", found.hash],
                ["height", "\(found.height)"],
                ["time", "\(time) (\(ExplorerJSON.relative(found.time)))"],
                ["merkle root", found.merkleRoot],
                ["transactions", found.txCount.map(String.init) ?? "unknown (the provider serves headers only)"],
                ["nonce", "\(found.nonce)"],
                ["previous", found.previousHash ?? "-"],
            ])
        )
    }
}
