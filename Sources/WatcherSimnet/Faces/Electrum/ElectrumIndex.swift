import WatcherBitcoin
import WatcherCore

/// The chain as an Electrum server indexes it: per address its history in status order, balance and unspent
/// outputs, and merkle branches of confirmed transactions. Pure reads of one ``ChainModel`` snapshot.
struct ElectrumIndex: Sendable {
    /// One `get_history` entry.
    struct HistoryEntry: Sendable, Hashable {
        var txHash: String
        var height: Int
        /// The fee, for mempool entries only (as servers print it).
        var fee: Int64?

        var hashEntry: ElectrumHash.Entry { ElectrumHash.Entry(txHash: txHash, height: height) }
    }

    /// One `listunspent` entry.
    struct Unspent: Sendable, Hashable {
        var txHash: String
        var txPos: Int
        var value: Int64
        var height: Int
    }

    let chain: ChainModel

    /// The history of `address`: confirmed transactions in chain order, then the mempool ones by `(-height, txid)`
    /// (height 0 when every parent is confirmed, -1 otherwise).
    func history(of address: String) -> [HistoryEntry] {
        let view = chain.view(of: address)
        let confirmed = view.confirmed.map { txid in
            HistoryEntry(txHash: txid, height: chain.location(of: txid)?.height ?? 0, fee: nil)
        }
        let mempool = view.unconfirmed.compactMap { txid -> HistoryEntry? in
            guard let tx = chain.transaction(txid) else { return nil }
            let parentsConfirmed = tx.inputs.allSatisfy { chain.location(of: $0.prevout.txid) != nil }
            return HistoryEntry(txHash: txid, height: parentsConfirmed ? 0 : -1, fee: tx.fee)
        }
        let ordered = ElectrumHash.statusOrder(confirmed: [], mempool: mempool.map(\.hashEntry))
        let byTxid = Dictionary(uniqueKeysWithValues: mempool.map { ($0.txHash, $0) })
        return confirmed + ordered.compactMap { byTxid[$0.txHash] }
    }

    /// The status of `address`'s history, `nil` when it has none.
    func status(of address: String) -> String? {
        ElectrumHash.status(history(of: address).map(\.hashEntry))
    }

    /// `get_balance`: confirmed satoshi, and the mempool's signed delta.
    func balance(of address: String) -> (confirmed: Int64, unconfirmed: Int64) {
        let truth = chain.view(of: address).truth
        return (truth.confirmedBalanceSat, truth.unconfirmedBalanceSat)
    }

    /// `listunspent`: outputs paying `address` that nothing spends (mempool spends included), in history order.
    func unspent(of address: String) -> [Unspent] {
        var result: [Unspent] = []
        for entry in history(of: address) {
            guard let tx = chain.transaction(entry.txHash) else { continue }
            for (vout, output) in tx.outputs.enumerated() where output.address == address {
                guard chain.spender(of: SimOutpoint(txid: tx.txid, vout: vout)) == nil else { continue }
                result.append(Unspent(txHash: tx.txid, txPos: vout, value: output.value, height: max(0, entry.height)))
            }
        }
        return result
    }

    /// The merkle branch of `txid` in the main-chain block at `height`, display-order hex, with its position;
    /// `nil` when the transaction is not in that block.
    func merkle(of txid: String, height: Int) -> (branch: [String], position: Int)? {
        guard let block = chain.block(height: height), let position = block.txids.firstIndex(of: txid.lowercased())
        else { return nil }
        var level = block.txids.compactMap { chain.transaction($0)?.txidHash }
        guard level.count == block.txids.count else { return nil }
        var index = position
        var branch: [String] = []
        while level.count > 1 {
            if level.count % 2 == 1 { level.append(level[level.count - 1]) }
            branch.append(level[index ^ 1].displayHex)
            level = stride(from: 0, to: level.count, by: 2).map {
                Hash256(hashing: level[$0].bytes + level[$0 + 1].bytes)
            }
            index /= 2
        }
        return (branch, position)
    }
}
