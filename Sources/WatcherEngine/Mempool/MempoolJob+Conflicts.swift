import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherStorage

/// A replacement read from the node's mempool retracts what it replaces at once. A transaction that spends an output
/// a followed unconfirmed transaction spends is its replacement (RBF, a double spend): the node accepted it, so the
/// original left the mempool, and it cannot be in a block either (the replacement would not be valid then). The
/// original is announced gone (`address.tx.replaced`, named replacement) in the commit that reads the replacement,
/// not a block later: the balance never counts both.
struct MempoolConflict: Sendable, Hashable {
    /// The followed unconfirmed transaction replaced.
    var txid: String
    /// The output both spend.
    var outpoint: TxOutpoint
    /// The transaction read from the mempool that spends it.
    var replacement: String
}

extension MempoolJob {
    /// The followed unconfirmed transactions (of `followed` and of the scanned wallets) that a transaction of `read`
    /// conflicts with, by address.
    func conflicts(_ read: [MempoolTransaction], followed: Set<String>) throws -> [String: [MempoolConflict]] {
        var spenders: [TxOutpoint: String] = [:]
        for item in read {
            for outpoint in item.facts.outpoints ?? [] { spenders[outpoint] = item.transaction.txid }
        }
        guard !spenders.isEmpty else { return [:] }
        let chain = self.chain
        let walletIDs = Set(targets.scan?.watches ?? []).intersection(targets.wallets.wallets.keys)
        return try context.store.read { txn in
            var result: [String: [MempoolConflict]] = [:]
            for state in try txn.addressStates(chain: chain)
            where followed.contains(state.address) || state.wallet.map({ walletIDs.contains($0.wallet) }) ?? false {
                for tx in state.txs.values.sorted(by: { $0.txid < $1.txid }) where tx.blockHeight == nil {
                    guard
                        let (outpoint, spender) = (tx.spends ?? []).lazy.compactMap({ outpoint in
                            spenders[outpoint].map { (outpoint, $0) }
                        }).first,
                        spender != tx.txid
                    else { continue }
                    result[state.address, default: []].append(
                        MempoolConflict(txid: tx.txid, outpoint: outpoint, replacement: spender)
                    )
                }
            }
            return result
        }
    }

    /// In the commit of a mempool batch: each conflict's original forgotten and announced replaced, its replacement
    /// named, and followed where the batch's match says it touches the same address.
    static func retract(
        _ conflicts: [String: [MempoolConflict]],
        matched: MempoolMatch,
        book: AddressBook,
        walletBook: WalletBook,
        wallets: inout WalletCommit,
        txn: StoreTransaction<WriteTransaction>,
        chain: String,
        now: Date
    ) throws -> [NewEvent] {
        var events: [NewEvent] = []
        for (address, list) in conflicts.sorted(by: { $0.key < $1.key }) {
            guard let stored = try txn.addressState(chain: chain, address: address) else { continue }
            guard let entry = try wallets.entry(of: stored, or: book.entries[address]) else { continue }
            // The replacements' effects on this address, where the batch matched them here.
            var deltas: [String: Int64] = [:]
            for tx in matched.addresses[address] ?? [] { deltas[tx.txid, default: 0] += tx.deltaSat }
            for match in matched.wallet {
                guard walletBook.wallets[match.ref.wallet]?.address(script: match.script) == address else { continue }
                deltas[match.txid, default: 0] += match.deltaSat
            }
            let followed = deltas.keys.sorted().map { txid in
                AddressTx(txid: txid, blockHeight: nil, time: nil, deltaSat: deltas[txid] ?? 0)
            }
            let context = AddressReducer.Context(chain: chain, entry: entry, prices: wallets.prices, now: now)
            var state = stored
            var emitted: [NewEvent] = []
            for conflict in list {
                let (next, more) = AddressReducer.dropped(
                    state,
                    txid: conflict.txid,
                    spends: [conflict.outpoint: .spent(by: conflict.replacement)],
                    followed: followed,
                    context: context
                )
                state = next
                emitted += more
            }
            events += emitted
            if state != stored { try txn.putAddressState(state) }
            if let ref = entry.wallet { try wallets.record(ref, before: stored, after: state, events: emitted) }
        }
        return events
    }
}
