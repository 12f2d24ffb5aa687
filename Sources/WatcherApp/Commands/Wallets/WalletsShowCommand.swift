import ArgumentParser
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherStatus

/// `watcher wallets show <id>`: one wallet in detail.
struct WalletsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a wallet: balances, each branch's window, used addresses and recent transactions."
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The wallet's watch id.")
    var id: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let config = try options.load(needsSinks: false)
        _ = try WalletsStore.watch(id, in: config)
        let (wallets, prices) = try WalletsStore.read(config)
        guard let wallet = wallets.first(where: { $0.watch.id == id }) else { return }
        let detail = WalletViews.detail(wallet, prices: prices)
        if json {
            Output.out(detail.serialized(pretty: true))
            return
        }
        let (balances, pending) = (wallet.balances, wallet.pendingText)
        func btc(_ sats: Int64?) -> String { sats.map { "\(Satoshi.btc($0)) BTC" } ?? pending }
        var rows = [
            ["wallet", wallet.watch.id],
            ["label", wallet.watch.label ?? "-"],
            ["descriptor", wallet.watch.wallet?.description ?? ""],
            ["gap", "\(wallet.watch.gap)"],
            ["balance", btc(balances?.confirmed)],
            ["unconfirmed", btc(balances?.unconfirmed)],
        ]
        for branch in WalletBranch.allCases where branch == .receive || wallet.watch.wallet?.change != nil {
            let window = wallet.state?[branch]
            let text = [
                window?.progress ?? "not scanned yet",
                window?.lastIssued.map { "last issued \($0)" },
                window?.derivedUpTo.map { "followed up to \($0)" },
            ].compactMap { $0 }.joined(separator: ", ")
            rows.append([branch.rawValue, text])
        }
        var lines = [ExplorerJSON.table(rows)]
        let used = detail["addresses"]?.arrayValue ?? []
        if !used.isEmpty {
            var table = [["BRANCH", "INDEX", "ADDRESS", "BALANCE (BTC)", "TXS"]]
            for address in used {
                table.append([
                    address["branch"]?.stringValue ?? "",
                    address["index"]?.serialized() ?? "",
                    address["address"]?.stringValue ?? "",
                    address["balanceBtc"]?.stringValue ?? "pending",
                    address["txCount"]?.serialized() ?? "",
                ])
            }
            lines += ["", ExplorerJSON.table(table)]
        }
        let txs = detail["transactions"]?.arrayValue ?? []
        if !txs.isEmpty {
            var table = [["TXID", "HEIGHT", "CONFIRMATIONS", "DELTA (BTC)"]]
            for tx in txs {
                table.append([
                    tx["txid"]?.stringValue ?? "",
                    tx["blockHeight"].flatMap { $0 == .null ? nil : $0.serialized() } ?? "mempool",
                    tx["confirmations"]?.serialized() ?? "",
                    tx["deltaBtc"]?.stringValue ?? "",
                ])
            }
            lines += ["", ExplorerJSON.table(table)]
        }
        Output.out(lines.joined(separator: "\n"))
    }
}
