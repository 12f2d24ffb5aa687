import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// The one write transaction of a chain round: the new chain memory and block events, then every followed
/// transaction's reverts, scanned payments and crossed thresholds.
extension ChainDriver {
    func commit(
        memory: ChainMemory,
        outcome: ChainSync.Outcome,
        newChain: [Int: String],
        floor: Int?,
        scanned: [ScannedBlock]
    ) async throws {
        let chain = self.chain
        var chainSettings = ChainReducer.Settings(
            chain: chain,
            watch: watch,
            announce: announce,
            keepHeaders: context.keepHeaders
        )
        chainSettings.maxAnnounced = maxBackfill
        let settings = chainSettings
        let book = try self.book()
        let txWatches = self.txWatches
        let now = context.events.now()
        try await context.commit { txn in
            let (next, blockEvents) = ChainReducer.reduce(memory, outcome, settings: settings, now: now)
            try next.save(txn, chain: chain, replacing: memory)
            var events = blockEvents
            let tipHeight = outcome.tip.height
            let prices = try txn.prices()
            var states = Dictionary(try txn.addressStates(chain: chain).map { ($0.address, $0) }) { a, _ in a }
            for block in scanned {
                for address in block.matches.keys where states[address] == nil {
                    states[address] = AddressState(chain: chain, address: address)
                }
            }
            for (address, state) in states.sorted(by: { $0.key < $1.key }) {
                guard let entry = book.entries[address] else { continue }
                let context = AddressReducer.Context(
                    chain: chain,
                    entry: entry,
                    prices: prices,
                    blockHashes: next.hashes,
                    now: now
                )
                var updated = state
                var emitted: [NewEvent] = []
                if let fork = floor {
                    (updated, emitted) = AddressReducer.revert(
                        updated,
                        fork: fork,
                        newChain: newChain,
                        context: context
                    )
                    events += emitted
                }
                for block in scanned {
                    guard let txs = block.matches[address] else { continue }
                    (updated, emitted) = AddressReducer.scanned(
                        updated,
                        txs,
                        block: block.block,
                        tipHeight: tipHeight,
                        context: context
                    )
                    events += emitted
                }
                (updated, emitted) = AddressReducer.tip(updated, height: tipHeight, context: context)
                events += emitted
                if updated != state { try txn.putAddressState(updated) }
            }
            events += try Self.txWatchEvents(
                txn,
                txWatches,
                chain: chain,
                floor: floor,
                newChain: newChain,
                tipHeight: tipHeight,
                now: now
            )
            return events
        }
    }

    /// Reverts and thresholds of the chain's `tx` watches.
    static func txWatchEvents(
        _ txn: StoreTransaction<WriteTransaction>,
        _ txWatches: [WatchConfig],
        chain: String,
        floor: Int?,
        newChain: [Int: String],
        tipHeight: Int,
        now: Date
    ) throws -> [NewEvent] {
        var events: [NewEvent] = []
        for watch in txWatches {
            guard let txid = watch.txid, let state = try txn.watchState(TxReducer.State.self, watch: watch.id)
            else { continue }
            let context = TxReducer.Context(
                chain: chain,
                watch: watch.id,
                txid: txid,
                thresholds: watch.confirmations,
                reorgSafety: watch.reorgSafety,
                now: now
            )
            var updated = state
            var emitted: [NewEvent] = []
            if let fork = floor {
                (updated, emitted) = TxReducer.revert(updated, fork: fork, newChain: newChain, context: context)
                events += emitted
            }
            (updated, emitted) = TxReducer.tip(updated, height: tipHeight, context: context)
            events += emitted
            if updated != state { try txn.putWatchState(updated, watch: watch.id) }
        }
        return events
    }
}
