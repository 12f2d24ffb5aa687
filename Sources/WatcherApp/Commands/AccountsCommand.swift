import ArgumentParser
import Foundation
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
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
            let changes = AccountChanges(config: try options.load(needsSinks: false), chain: chain)
            var opened: Store?
            let account: Account
            do {
                (account, _) = try await changes.add(address, label: label) {
                    let store = try StoreAccess.writer(changes.config)
                    opened = store
                    return store
                }
            } catch let error as AccountChangeError {
                throw error.commandFailure
            }
            await opened?.close()
            Output.out("following \(account.address)\(account.label.map { " (\($0))" } ?? "")")
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
            let followed = FollowedAccount.all(watches: config.watches, chain: chain, accounts: accounts)
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
            let configured = FollowedAccount.all(
                watches: config.watches,
                chain: chain,
                accounts: account.map { [$0] } ?? []
            )
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
            let changes = AccountChanges(config: try options.load(needsSinks: false), chain: chain)
            do {
                _ = try changes.parse(address)
            } catch {
                throw error.commandFailure
            }
            let reader = try StoreAccess.reader(changes.config)
            await reader.close()
            let writer = try StoreAccess.writer(changes.config)
            let outcome: String
            do {
                outcome = try await changes.remove(address, store: writer)
            } catch let error as AccountChangeError {
                await writer.close()
                throw error.commandFailure
            }
            await writer.close()
            Output.out(outcome)
        }
    }
}
