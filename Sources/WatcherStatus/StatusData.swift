import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherRules
import WatcherStorage

/// What the JSON API and the web UI show, read from the store (one definition for both).
struct StatusData: Sendable {
    /// A followed account with what the store knows of it.
    struct AccountView: Sendable {
        var followed: FollowedAccount
        var summary: AddressSummary?
        var prices: [PriceQuote]

        var json: JSONValue {
            AccountJSON.account(address: followed.address, label: followed.label, summary: summary, fiat: prices)
        }
    }

    /// One account in detail: its view and its known transactions, newest first.
    struct AccountDetail: Sendable {
        var view: AccountView
        var txs: [AddressState.TrackedTx]
        var tipHeight: Int?

        func confirmations(_ tx: AddressState.TrackedTx) -> Int {
            guard let height = tx.blockHeight, let tipHeight, tipHeight >= height else { return 0 }
            return tipHeight - height + 1
        }
    }

    /// A logged event with its envelope.
    struct EventView: Sendable {
        var seq: UInt64
        var type: String
        var envelope: JSONValue

        var json: JSONValue {
            .object([.init("seq", .integer(seq)), .init("type", .string(type)), .init("event", envelope)])
        }
    }

    let sources: StatusServer.Sources

    /// The config's watches in force now.
    var watches: [WatchConfig] { sources.currentWatches?() ?? sources.watches }

    /// Exactly the wallets of `watcher wallets list`: the config's, with what the store knows.
    func wallets() throws -> [WalletViews.Wallet] {
        try WalletViews.read(sources.store, watches: watches)
    }

    /// Every payment request of the wallets that take them, oldest first, and each chain's tip height.
    func requests() throws -> ([PaymentRequest], [String: Int]) {
        let chains = Set(watches.filter { $0.kind == .wallet && $0.requests != nil }.map(\.chain)).sorted()
        return try sources.store.read { txn in
            var requests: [PaymentRequest] = []
            var tips: [String: Int] = [:]
            for chain in chains {
                requests += try txn.requests(chain: chain)
                tips[chain] = try txn.tip(chain: chain)?.height
            }
            return (requests.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, tips)
        }
    }

    func blocks(limit: Int = 20) throws -> [BlockHeader] {
        let chain = sources.chain
        return try sources.store.read { try $0.recentHeaders(chain: chain, limit: limit) }
    }

    /// A block from the store, else through the providers when the daemon gave a way to.
    func block(_ id: BlockID) async throws -> BlockHeader? {
        let chain = sources.chain
        let stored = try sources.store.read { txn in
            switch id {
            case .height(let height): try txn.header(chain: chain, height: height)
            case .hash(let hash): try txn.header(chain: chain, hash: hash)
            }
        }
        if let stored { return stored }
        guard let fetch = sources.fetchBlock else { return nil }
        return try await fetch(id)
    }

    /// Exactly the accounts of `watcher accounts list`: config watches first, then stored accounts.
    func accounts() throws -> [AccountView] {
        let chain = sources.chain
        let (accounts, states, prices) = try sources.store.read { txn in
            (try txn.accounts(chain: chain), try txn.addressStates(chain: chain), try txn.prices())
        }
        let summaries = Dictionary(states.compactMap { state in state.summary.map { (state.address, $0) } }) { a, _ in
            a
        }
        return FollowedAccount.all(watches: watches, chain: chain, accounts: accounts).map {
            AccountView(followed: $0, summary: summaries[$0.address], prices: prices)
        }
    }

    /// One followed account in detail, `nil` when it is not followed.
    func account(_ address: String) throws -> AccountDetail? {
        let chain = sources.chain
        let (stored, state, prices, tip) = try sources.store.read { txn in
            (
                try txn.account(chain: chain, address: address),
                try txn.addressState(chain: chain, address: address), try txn.prices(), try txn.tip(chain: chain)
            )
        }
        let followed = FollowedAccount.all(watches: watches, chain: chain, accounts: stored.map { [$0] } ?? [])
        guard let entry = followed.first(where: { $0.address == address }) else { return nil }
        let txs = (state?.txs.values.map { $0 } ?? []).sorted { a, b in
            (a.blockHeight ?? .max, a.txid) > (b.blockHeight ?? .max, b.txid)
        }
        return AccountDetail(
            view: AccountView(followed: entry, summary: state?.summary, prices: prices),
            txs: txs,
            tipHeight: tip?.height
        )
    }

    func prices() throws -> [PriceQuote] {
        try sources.store.read { try $0.prices() }.sorted { $0.currency < $1.currency }
    }

    /// The newest `limit` events of the durable log, newest first, of `type` (a type or a prefix such as
    /// `block.`) when given. Looks back over the last 5,000 entries at most.
    func events(type: String?, limit: Int) throws -> [EventView] {
        let logged = try sources.store.read { txn in
            let last = try txn.lastEventSeq()
            return try txn.events(from: last > 5000 ? last - 5000 : 0)
        }
        var result: [EventView] = []
        for event in logged.reversed() where type.map({ event.type == $0 || event.type.hasPrefix($0) }) ?? true {
            result.append(Self.view(event))
            if result.count == limit { break }
        }
        return result
    }

    /// The log after `seq` (oldest first), for the event stream: the entries as stored, not parsed.
    func events(after seq: UInt64, limit: Int) throws -> [LoggedEvent] {
        try sources.store.read { try $0.events(from: seq + 1, limit: limit) }
    }

    /// The highest sequence number assigned so far.
    func lastSeq() throws -> UInt64 { try sources.store.read { try $0.lastEventSeq() } }

    static func view(_ event: LoggedEvent) -> EventView {
        EventView(seq: event.seq, type: event.type, envelope: (try? JSONValue.parse(event.body)) ?? .null)
    }
}
