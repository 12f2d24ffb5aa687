import ArgumentParser
import Foundation
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherStatus
import WatcherStorage

/// `watcher wallets list`: the config's wallets with their balances and how far their history check went.
struct WalletsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the config's wallets with their balances and windows."
    )

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let config = try options.load(needsSinks: false)
        let (wallets, prices) = try WalletsStore.read(config)
        if json {
            Output.out(
                JSONValue.array(wallets.map { WalletViews.summary($0, prices: prices) }).serialized(pretty: true)
            )
            return
        }
        guard !wallets.isEmpty else {
            Output.out("no wallets; add a watch of type \"wallet\" to the config")
            return
        }
        var rows = [["WALLET", "LABEL", "BALANCE (BTC)", "UNCONFIRMED (BTC)", "RECEIVE", "CHANGE"]]
        for wallet in wallets {
            let state = wallet.state
            let balances = wallet.balances
            rows.append([
                wallet.watch.id,
                wallet.watch.label ?? "",
                balances.map { Satoshi.btc($0.confirmed) } ?? wallet.pendingText,
                balances.map { Satoshi.btc($0.unconfirmed) } ?? "pending",
                state?.receive.progress ?? "not scanned yet",
                wallet.watch.wallet?.change == nil ? "-" : state?.change.progress ?? "not scanned yet",
            ])
        }
        Output.out(ExplorerJSON.table(rows))
    }
}

/// Reading wallets for the CLI: the store when there is one (read-only, beside a running daemon), else the config
/// alone (every wallet "not scanned yet").
enum WalletsStore {
    static func read(_ config: WatcherConfig) throws -> ([WalletViews.Wallet], [PriceQuote]) {
        let store: Store
        do {
            guard FileManager.default.fileExists(atPath: config.storage.path + "/data.mdb") else {
                throw StorageError.missingStore(path: config.storage.path)
            }
            store = try Store(path: config.storage.path, options: EnvironmentOptions(readOnly: true))
        } catch StorageError.missingStore {
            // No store yet (or one a starting daemon has not finished creating): nothing is scanned yet.
            return (try WalletViews.read(nil, watches: config.watches), [])
        } catch let error as StorageError {
            throw CommandFailure.runtime(error.description)
        }
        defer { store.environment.close() }
        return (try WalletViews.read(store, watches: config.watches), try store.read { try $0.prices() })
    }

    /// The configured wallet `id`, or a usage error listing the wallets.
    static func watch(_ id: String, in config: WatcherConfig) throws -> WatchConfig {
        let wallets = config.watches.filter { $0.kind == .wallet }
        guard let watch = wallets.first(where: { $0.id == id }) else {
            let known = wallets.map(\.id).sorted()
            throw CommandFailure.usage(
                "no wallet \(JSONValue.quoted(id)) in the config"
                    + (known.isEmpty ? "" : "; wallets: \(known.joined(separator: ", "))")
            )
        }
        return watch
    }
}
