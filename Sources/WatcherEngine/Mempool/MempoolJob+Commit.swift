import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherStorage

/// One batch of mempool transactions matched, as the scanned-block commit takes them.
struct MempoolMatch: Sendable {
    /// The followed addresses touched, with their transactions and deltas.
    var addresses: [String: [AddressReducer.ScannedTx]]
    /// The transactions' zero-conf facts, by txid.
    var facts: [String: TxFacts]
    /// The wallet addresses touched.
    var wallet: [WalletMatcher.Match] = []

    var isEmpty: Bool { addresses.isEmpty && wallet.isEmpty }
}

/// The write transaction of a mempool batch: each followed address and wallet address touched gets its unconfirmed
/// transactions through ``AddressReducer/pushed(_:txid:deltaSat:facts:context:)`` (a transaction already known,
/// from an earlier read or a block, changes nothing), wallets their `wallet.balance.changed`, windows grown as a
/// block's match grows them. A followed unconfirmed transaction that one of the batch replaces is retracted first
/// (``retract(_:matched:book:walletBook:wallets:txn:chain:now:)``).
extension MempoolJob {
    func commitMempool(
        _ matched: MempoolMatch,
        derived: [WalletAddressRef: [UInt8]],
        conflicts: [String: [MempoolConflict]] = [:]
    ) async throws {
        let chain = self.chain
        let book = try targets.book()
        let walletBook = targets.wallets
        let now = context.events.now()
        try await context.commit { txn in
            var wallets = try WalletCommit(chain: chain, book: walletBook, txn: txn, now: now, derived: derived)
            var events = try Self.retract(
                conflicts,
                matched: matched,
                book: book,
                walletBook: walletBook,
                wallets: &wallets,
                txn: txn,
                chain: chain,
                now: now
            )
            var walletTxs: [String: (ref: WalletAddressRef, txs: [AddressReducer.ScannedTx])] = [:]
            for match in matched.wallet {
                guard let wallet = walletBook.wallets[match.ref.wallet],
                    let address = wallet.address(script: match.script), try wallets.state(wallet.id) != nil
                else { continue }
                try wallets.used(match.ref)
                walletTxs[address, default: (match.ref, [])].txs.append(
                    .init(txid: match.txid, deltaSat: match.deltaSat)
                )
            }
            for (address, txs) in matched.addresses.sorted(by: { $0.key < $1.key }) where walletTxs[address] == nil {
                guard let entry = book.entries[address] else { continue }
                let stored = try txn.addressState(chain: chain, address: address)
                let context = AddressReducer.Context(chain: chain, entry: entry, prices: wallets.prices, now: now)
                let (next, emitted) = Self.pushed(stored ?? AddressState(chain: chain, address: address), txs, matched)
                {
                    AddressReducer.pushed($0, txid: $1.txid, deltaSat: $1.deltaSat, facts: $2, context: context)
                }
                events += emitted
                if next != stored { try txn.putAddressState(next) }
            }
            for (address, item) in walletTxs.sorted(by: { $0.key < $1.key }) {
                let stored = try txn.addressState(chain: chain, address: address)
                guard let (state, entry) = try wallets.address(address, ref: item.ref, stored: stored),
                    let ref = state.wallet
                else { continue }
                let context = AddressReducer.Context(chain: chain, entry: entry, prices: wallets.prices, now: now)
                let (next, emitted) = Self.pushed(state, item.txs, matched) {
                    AddressReducer.pushed($0, txid: $1.txid, deltaSat: $1.deltaSat, facts: $2, context: context)
                }
                events += emitted
                if next != stored { try txn.putAddressState(next) }
                try wallets.record(ref, before: stored, after: next, events: emitted)
            }
            return events + (try wallets.finish())
        }
    }

    /// Applies `txs` one after the other.
    private static func pushed(
        _ state: AddressState,
        _ txs: [AddressReducer.ScannedTx],
        _ matched: MempoolMatch,
        _ apply: (AddressState, AddressReducer.ScannedTx, TxFacts?) -> (AddressState, [NewEvent])
    ) -> (AddressState, [NewEvent]) {
        var state = state
        var events: [NewEvent] = []
        for tx in txs {
            let (next, emitted) = apply(state, tx, matched.facts[tx.txid])
            state = next
            events += emitted
        }
        return (state, events)
    }
}
