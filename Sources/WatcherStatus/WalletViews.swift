import Foundation
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherStorage

/// The JSON of followed wallets, shared by `watcher wallets list/show --json` and `/api/wallets`,
/// `/api/wallets/{id}`: read from the store, so the CLI and the daemon's server say the same.
public enum WalletViews {
    /// What the store knows of one configured wallet.
    public struct Wallet: Sendable {
        /// Its watch.
        public var watch: WatchConfig
        /// Its state, `nil` before its first round (or when the config now describes another wallet under its id).
        public var state: WalletState?
        /// Its used addresses' states.
        public var addresses: [AddressState]
        /// The addresses handed out.
        public var issued: [IssuedAddress]
        /// The chain tip, for confirmations.
        public var tipHeight: Int?

        /// Used addresses (with a transaction) whose balance no provider has given yet: a scanned wallet learns a
        /// paid address from the block and reads its balance afterwards (the balance fill). While any is unread,
        /// the wallet's balances are not known.
        public var unreadAddresses: Int {
            addresses.count { !$0.txs.isEmpty && $0.summary?.balanceSat == nil }
        }

        /// The confirmed and unconfirmed balances; `nil` while they are not known (before the first round, or
        /// while a used address is unread), never the sum of the known ones.
        public var balances: (confirmed: Int64, unconfirmed: Int64)? {
            guard let state, unreadAddresses == 0 else { return nil }
            return (state.balanceSat, state.unconfirmedSat)
        }

        /// What a balance that is not known says instead: "pending", with the unread addresses when there are.
        public var pendingText: String {
            let unread = unreadAddresses
            guard state != nil, unread > 0 else { return "pending" }
            return "pending (\(unread) used address\(unread == 1 ? "" : "es") not read yet)"
        }
    }

    /// Every configured wallet of `watches` with what `store` knows (nothing when `store` is `nil`).
    public static func read(_ store: Store?, watches: [WatchConfig]) throws -> [Wallet] {
        let wallets = watches.filter { $0.kind == .wallet }
        guard let store else {
            return wallets.map { Wallet(watch: $0, state: nil, addresses: [], issued: [], tipHeight: nil) }
        }
        return try store.read { txn in
            var result: [Wallet] = []
            var statesByChain: [String: [AddressState]] = [:]
            for watch in wallets {
                if statesByChain[watch.chain] == nil {
                    statesByChain[watch.chain] = try txn.addressStates(chain: watch.chain).filter { $0.wallet != nil }
                }
                let state = try txn.walletState(chain: watch.chain, wallet: watch.id)
                let current = state?.descriptor == watch.wallet?.description ? state : nil
                result.append(
                    Wallet(
                        watch: watch,
                        state: current,
                        addresses: current == nil
                            ? []
                            : statesByChain[watch.chain, default: []].filter {
                                $0.wallet?.wallet == watch.id
                            },
                        issued: current == nil ? [] : try txn.issuedAddresses(chain: watch.chain, wallet: watch.id),
                        tipHeight: try txn.tip(chain: watch.chain)?.height
                    )
                )
            }
            return result
        }
    }

    /// `{"lastUsed", "lastIssued", "derivedUpTo", "checkedUpTo", "scan"}`, `null` where none.
    static func window(_ window: WalletState.Window?) -> JSONValue {
        .object([
            .init("lastUsed", .integer(window?.lastUsed)),
            .init("lastIssued", .integer(window?.lastIssued)),
            .init("derivedUpTo", .integer(window?.derivedUpTo)),
            .init("checkedUpTo", .integer(window?.checkedUpTo)),
            .init("scan", .string(window?.progress ?? "not scanned yet")),
        ])
    }

    static func money(_ name: String, _ sats: Int64?) -> [JSONValue.Member] {
        [
            .init("\(name)Sat", sats.map { .number("\($0)") } ?? .null),
            .init("\(name)Btc", sats.map { .string(Satoshi.btc($0)) } ?? .null),
        ]
    }

    /// One wallet as `wallets list` and `/api/wallets` show it: balances and each branch's window.
    public static func summary(_ wallet: Wallet, prices: [PriceQuote]) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("wallet", .string(wallet.watch.id)),
            .init("label", .optional(wallet.watch.label)),
            .init("chain", .string(wallet.watch.chain)),
        ]
        let balances = wallet.balances
        members += money("balance", balances?.confirmed)
        members += money("unconfirmed", balances?.unconfirmed)
        members.append(.init("fiat", balances.map { AccountJSON.fiatValues($0.confirmed, prices) } ?? .object([])))
        members.append(.init("usedAddresses", .integer(wallet.addresses.count)))
        members.append(.init("unreadAddresses", .integer(wallet.unreadAddresses)))
        members.append(.init("receive", window(wallet.state?.receive)))
        members.append(
            .init("change", wallet.watch.wallet?.change == nil ? .null : window(wallet.state?.change))
        )
        return .object(members)
    }

    /// Most transactions `detail` lists.
    public static let recentTransactions = 50

    /// One wallet in detail (`wallets show --json`, `/api/wallets/{id}`): its descriptor and gap, balances,
    /// windows, used addresses, addresses handed out and recent transactions.
    public static func detail(_ wallet: Wallet, prices: [PriceQuote]) -> JSONValue {
        var members = summary(wallet, prices: prices).members ?? []
        let insert = members.firstIndex { $0.key == "balanceSat" } ?? members.endIndex
        members.insert(
            contentsOf: [
                .init("descriptor", .string(wallet.watch.wallet?.description ?? "")),
                .init("gap", .integer(wallet.watch.gap)),
                .init("strategy", .string(wallet.watch.strategy.rawValue)),
                .init("since", .integer(wallet.state?.since)),
            ],
            at: insert
        )
        let used = wallet.addresses.sorted {
            ($0.wallet?.branch.number ?? 0, $0.wallet?.index ?? 0) < (
                $1.wallet?.branch.number ?? 0, $1.wallet?.index ?? 0
            )
        }
        let labels = Dictionary(wallet.issued.map { ($0.address, $0.label) }) { first, _ in first }
        members.append(
            .init(
                "addresses",
                .array(
                    used.map { state in
                        .object(
                            [
                                .init("address", .string(state.address)),
                                .init("branch", .string(state.wallet?.branch.rawValue ?? "")),
                                .init("index", .integer(state.wallet?.index)),
                                .init("label", .optional(labels[state.address] ?? nil)),
                            ] + money("balance", state.summary?.balanceSat)
                                + money("unconfirmed", state.summary?.unconfirmedBalanceSat) + [
                                    .init("txCount", .integer(state.summary?.txCount)),
                                    .init("unconfirmedTxCount", .integer(state.summary?.unconfirmedTxCount)),
                                ]
                        )
                    }
                )
            )
        )
        members.append(
            .init(
                "issued",
                .array(
                    wallet.issued.map {
                        .object([
                            .init("index", .integer($0.index)),
                            .init("address", .string($0.address)),
                            .init("label", .optional($0.label)),
                            .init("issuedAt", .string(ISO8601Time.stringWithMilliseconds($0.issuedAt))),
                        ])
                    }
                )
            )
        )
        members.append(.init("transactions", .array(transactions(wallet))))
        return .object(members)
    }

    /// The wallet's known transactions, each with its net effect on the wallet, the mempool first then newest
    /// first.
    static func transactions(_ wallet: Wallet) -> [JSONValue] {
        struct Row {
            var txid: String
            var height: Int?
            var hash: String?
            var delta: Int64 = 0
            var addresses: [JSONValue] = []
        }
        var rows: [String: Row] = [:]
        for state in wallet.addresses {
            for tx in state.txs.values {
                var row = rows[tx.txid] ?? Row(txid: tx.txid, height: tx.blockHeight, hash: tx.blockHash)
                row.delta += tx.deltaSat
                row.addresses.append(
                    .object([
                        .init("address", .string(state.address)),
                        .init("branch", .string(state.wallet?.branch.rawValue ?? "")),
                        .init("index", .integer(state.wallet?.index)),
                        .init("deltaSat", .number("\(tx.deltaSat)")),
                    ])
                )
                rows[tx.txid] = row
            }
        }
        let sorted = rows.values.sorted { ($0.height ?? .max, $0.txid) > ($1.height ?? .max, $1.txid) }
        return sorted.prefix(recentTransactions).map { row in
            let confirmations = row.height.flatMap { height in wallet.tipHeight.map { max(0, $0 - height + 1) } } ?? 0
            return .object([
                .init("txid", .string(row.txid)),
                .init("deltaSat", .number("\(row.delta)")),
                .init("deltaBtc", .string(Satoshi.btc(row.delta))),
                .init("blockHeight", .integer(row.height)),
                .init("blockHash", .optional(row.hash)),
                .init("confirmations", .integer(confirmations)),
                .init("addresses", .array(row.addresses)),
            ])
        }
    }
}

extension JSONValue {
    /// A nullable string.
    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}
