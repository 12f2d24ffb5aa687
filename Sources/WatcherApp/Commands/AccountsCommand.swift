import ArgumentParser
import Foundation
import WatcherCore
import WatcherEngine
import WatcherStorage

/// `watcher accounts`: followed addresses, kept in the store; a running `watcher run` picks changes up.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "Follow addresses and show their balances.",
        subcommands: [Add.self, List.self, Show.self, Remove.self]
    )
}

extension AccountsCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow an address (validated offline, then checked through the configured provider)."
        )

        @OptionGroup var options: ConfigOptions

        @Argument(help: "An address or a bitcoin: URI.")
        var address: String

        @Option(help: "A label (a bitcoin: URI's label is used otherwise).")
        var label: String?

        @Option(help: "The chain.")
        var chain = "btc"

        func run() async throws {
            let parsed: LabeledAddress
            do {
                parsed = try LabeledAddress(parsing: address)
            } catch {
                throw CommandFailure.usage(error.description)
            }
            if let network = BitcoinAddress.Network(chain: chain), !parsed.address.isValid(on: network) {
                throw CommandFailure.usage(
                    "\(parsed.address.string) is a \(parsed.address.network) address; chain \"\(chain)\" is \(network)"
                )
            }
            let config = try options.load(needsSinks: false)
            let canonical = parsed.address.string
            let chain = self.chain
            let summary: AddressSummary
            do {
                summary = try await ProviderSession.with(config) { session in
                    try await session.ask(chain: chain) { try await $0.address(canonical) }
                }
            } catch let error as ProviderError {
                throw CommandFailure.runtime(error.description)
            }
            guard (summary.txCount ?? 0) + (summary.unconfirmedTxCount ?? 0) > 0 else {
                throw CommandFailure.runtime("\(canonical) has no transactions; nothing was stored")
            }
            let account = Account(chain: chain, address: canonical, label: label ?? parsed.label, addedAt: Date())
            let store = try StoreAccess.writer(config)
            try await store.write { try $0.putAccount(account) }
            await store.close()
            Output.out("following \(canonical)\(account.label.map { " (\($0))" } ?? "")")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List followed addresses with balances.")

        @OptionGroup var options: ConfigOptions

        @Flag(help: "Print JSON.")
        var json = false

        @Option(help: "The chain.")
        var chain = "btc"

        func run() async throws {
            let config = try options.load(needsSinks: false)
            let store = try StoreAccess.reader(config)
            let chain = self.chain
            let (accounts, states, prices) = try store.read { txn in
                (try txn.accounts(chain: chain), try txn.addressStates(chain: chain), try txn.prices())
            }
            await store.close()
            let summaries = Dictionary(states.compactMap { state in state.summary.map { (state.address, $0) } }) {
                first,
                _ in first
            }
            let followed = Followed.all(config: config, chain: chain, accounts: accounts)
            if json {
                let items = followed.map {
                    ExplorerJSON.account(
                        address: $0.address,
                        label: $0.label,
                        summary: summaries[$0.address],
                        fiat: prices
                    )
                }
                Output.out(JSONValue.array(items).serialized(pretty: true))
                return
            }
            guard !followed.isEmpty else {
                Output.out("no followed accounts; add one with `watcher accounts add <address>`")
                return
            }
            let currencies = prices.map(\.currency).sorted()
            var rows = [["ADDRESS", "LABEL", "WATCH", "BALANCE (BTC)"] + currencies]
            for account in followed {
                let balance = summaries[account.address]?.balanceSat
                var row = [account.address, account.label ?? "", account.watch, balance.map(Satoshi.btc) ?? "pending"]
                for currency in currencies {
                    let price = prices.first { $0.currency == currency }?.price
                    row.append(balance.flatMap { sats in price.map { ExplorerJSON.fiatText(sats, $0) } } ?? "-")
                }
                rows.append(row)
            }
            Output.out(ExplorerJSON.table(rows))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one followed address in detail.")

        @OptionGroup var options: ConfigOptions

        @Argument(help: "The address.")
        var address: String

        @Flag(help: "Print JSON.")
        var json = false

        @Option(help: "The chain.")
        var chain = "btc"

        func run() async throws {
            let canonical: String
            do {
                canonical = try LabeledAddress(parsing: address).address.string
            } catch {
                throw CommandFailure.usage(error.description)
            }
            let config = try options.load(needsSinks: false)
            let store = try StoreAccess.reader(config)
            let chain = self.chain
            let (account, state, prices) = try store.read { txn in
                (
                    try txn.account(chain: chain, address: canonical),
                    try txn.addressState(chain: chain, address: canonical), try txn.prices()
                )
            }
            await store.close()
            let configured = Followed.all(config: config, chain: chain, accounts: account.map { [$0] } ?? [])
            guard let account = configured.first(where: { $0.address == canonical }) else {
                throw CommandFailure.runtime("\(canonical) is not followed")
            }
            let summary = state?.summary
            if json {
                Output.out(
                    ExplorerJSON.account(address: canonical, label: account.label, summary: summary, fiat: prices)
                        .serialized(pretty: true)
                )
                return
            }
            func btc(_ sats: Int64?) -> String { sats.map { "\(Satoshi.btc($0)) BTC" } ?? "pending" }
            Output.out(
                ExplorerJSON.table([
                    ["address", canonical],
                    ["label", account.label ?? "-"],
                    ["transactions", summary?.txCount.map { "\($0)" } ?? "pending"],
                    ["total received", btc(summary?.totalReceivedSat)],
                    ["total sent", btc(summary?.totalSentSat)],
                    ["balance", btc(summary?.balanceSat)],
                    ["unconfirmed", btc(summary?.unconfirmedBalanceSat)],
                ])
            )
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop following an address.")

        @OptionGroup var options: ConfigOptions

        @Argument(help: "The address.")
        var address: String

        @Option(help: "The chain.")
        var chain = "btc"

        func run() async throws {
            let canonical: String
            do {
                canonical = try LabeledAddress(parsing: address).address.string
            } catch {
                throw CommandFailure.usage(error.description)
            }
            let config = try options.load(needsSinks: false)
            let chain = self.chain
            // Config watches that still follow the address keep its engine state.
            let watches = Followed.configWatches(following: canonical, chain: chain, config: config)
            let store = try StoreAccess.reader(config)
            await store.close()
            let writer = try StoreAccess.writer(config)
            let keep = !watches.isEmpty
            let removed = try await writer.write {
                try $0.removeAccount(chain: chain, address: canonical, keepingState: keep)
            }
            await writer.close()
            guard removed else {
                guard let watch = watches.first else { throw CommandFailure.runtime("\(canonical) is not followed") }
                throw CommandFailure.runtime(
                    "\(canonical) is followed by watch \"\(watch)\" in the config, not by `watcher accounts add`; "
                        + "nothing was changed (remove it from that watch's addresses instead)"
                )
            }
            guard let watch = watches.first else {
                Output.out("stopped following \(canonical)")
                return
            }
            Output.out("removed account \(canonical); watch \"\(watch)\" in the config still follows it")
        }
    }
}

/// An address the watcher follows: from an `address` watch in the config, or added with `accounts add`.
struct Followed {
    var address: String
    var label: String?
    var watch: String

    /// The ids of the config's `address` watches on `chain` that list `address`, in file order.
    static func configWatches(following address: String, chain: String, config: WatcherConfig) -> [String] {
        config.watches.filter { watch in
            watch.kind == .address && watch.chain == chain && watch.addresses.contains { $0.address == address }
        }.map(\.id)
    }

    /// Config watches first (in file order), then CLI-followed accounts not already in the config.
    static func all(config: WatcherConfig, chain: String, accounts: [Account]) -> [Followed] {
        var result: [Followed] = []
        for watch in config.watches where watch.kind == .address && watch.chain == chain {
            for item in watch.addresses where !result.contains(where: { $0.address == item.address }) {
                result.append(Followed(address: item.address, label: item.label, watch: watch.id))
            }
        }
        for account in accounts where !result.contains(where: { $0.address == account.address }) {
            result.append(Followed(address: account.address, label: account.label, watch: "accounts"))
        }
        return result
    }
}
