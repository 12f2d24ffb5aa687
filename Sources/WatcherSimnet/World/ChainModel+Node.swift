import WatcherBitcoin
import WatcherCore

/// What Bitcoin Core's RPC and REST faces read beyond the Blockbook and rawaddr faces: stale blocks, median times,
/// chain work, the UTXO set and the mempool's spends.
extension ChainModel {
    /// A block by hash, on the main chain or taken off it by a reorg, with its transactions.
    struct BlockRecord: Sendable {
        var block: SimBlock
        var transactions: [SimTransaction]
        var onMainChain: Bool
    }

    /// The block with `hash` (any case), main chain first, then stale blocks.
    func record(hash: String) -> BlockRecord? {
        let key = hash.lowercased()
        if let block = block(hash: key) {
            return BlockRecord(
                block: block,
                transactions: block.txids.compactMap { transactions[$0] },
                onMainChain: true
            )
        }
        return staleBlocks[key].map { BlockRecord(block: $0.block, transactions: $0.transactions, onMainChain: false) }
    }

    /// The median time of the 11 blocks ending at `block` (fewer near the first block), as Core's `mediantime`.
    func medianTime(of block: SimBlock) -> Int64 {
        var times = [block.time]
        var height = block.height - 1
        while times.count < 11, let previous = self.block(height: height) {
            times.append(previous.time)
            height -= 1
        }
        times.sort()
        return times[times.count / 2]
    }

    /// Core's `chainwork` at `height`: every block since height 0 at regtest's work of 2, as 64 hex digits.
    func chainwork(atHeight height: Int) -> String {
        let work = UInt64(Self.workPerBlock) * UInt64(max(0, height) + 1)
        let hex = String(work, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// Confirmations as Core reports them: from the tip on the main chain, `-1` for a stale block.
    func coreConfirmations(_ block: SimBlock, onMainChain: Bool) -> Int {
        onMainChain ? confirmations(atHeight: block.height) : -1
    }

    /// `true` if the output exists, is confirmed, and no confirmed transaction spends it: in Core's UTXO set.
    func isConfirmedUnspent(_ outpoint: SimOutpoint) -> Bool {
        guard confirmedAt[outpoint.txid] != nil, output(at: outpoint) != nil else { return false }
        guard let spender = spentBy[outpoint] else { return true }
        return confirmedAt[spender.txid] == nil
    }

    /// The confirmed unspent outputs paying `scriptPubKey`, in chain order.
    func confirmedUnspent(paying scriptPubKey: [UInt8]) -> [SimOutpoint] {
        let candidates: [String]
        if let address = book.first(where: { $0.value.scriptPubKey == scriptPubKey })?.key {
            candidates = ledger.entry(address).txids
        } else {
            candidates = blocks.flatMap(\.txids)
        }
        var seen: Set<String> = []
        var result: [SimOutpoint] = []
        for txid in candidates where seen.insert(txid).inserted {
            guard let tx = transactions[txid] else { continue }
            for (vout, output) in tx.raw.outputs.enumerated() where output.scriptPubKey == scriptPubKey {
                let outpoint = SimOutpoint(txid: txid, vout: vout)
                if isConfirmedUnspent(outpoint) { result.append(outpoint) }
            }
        }
        return result
    }

    /// The number of outputs in the UTXO set (Core's `txouts` of `scantxoutset`).
    func utxoCount() -> Int {
        var count = 0
        for block in blocks {
            for txid in block.txids {
                guard let tx = transactions[txid] else { continue }
                for vout in tx.outputs.indices where isConfirmedUnspent(SimOutpoint(txid: txid, vout: vout)) {
                    count += 1
                }
            }
        }
        return count
    }

    /// The height of the tip when a mempool transaction arrived: the last block mined at or before it was seen.
    func entryHeight(of tx: SimTransaction) -> Int {
        blocks.last { $0.time <= tx.firstSeen }?.height ?? tip.height
    }
}
