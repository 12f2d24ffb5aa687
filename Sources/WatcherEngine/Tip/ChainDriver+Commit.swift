import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherStorage

/// The one write transaction of a chain round: the new chain memory and block events, then every followed
/// transaction's reverts, scanned payments and crossed thresholds.
extension ChainDriver {
    func commit(
        memory: ChainMemory,
        outcome: ChainSync.Outcome,
        newChain: [Int: String],
        floor: Int?,
        scanned: [ScannedBlock],
        derived: [WalletAddressRef: [UInt8]] = [:]
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
        let walletBook = self.wallets
        let now = context.events.now()
        try await context.commit { txn in
            let (next, blockEvents) = ChainReducer.reduce(memory, outcome, settings: settings, now: now)
            try next.save(txn, chain: chain, replacing: memory)
            var events = blockEvents
            let tipHeight = outcome.tip.height
            var wallets = try WalletCommit(chain: chain, book: walletBook, txn: txn, now: now, derived: derived)
            let prices = wallets.prices
            let stored = Dictionary(try txn.addressStates(chain: chain).map { ($0.address, $0) }) { a, _ in a }
            var states = stored
            for block in scanned {
                for address in block.matches.keys where states[address] == nil {
                    states[address] = AddressState(chain: chain, address: address)
                }
            }
            // Wallet addresses the blocks touch, by address; a new one checked empty starts from a zero balance.
            var walletMatches: [String: [Int: [AddressReducer.ScannedTx]]] = [:]
            for (position, block) in scanned.enumerated() {
                for match in block.wallet {
                    guard let wallet = walletBook.wallets[match.ref.wallet],
                        let address = wallet.address(script: match.script), try wallets.state(wallet.id) != nil
                    else { continue }
                    try wallets.used(match.ref)
                    walletMatches[address, default: [:]][position, default: []].append(
                        .init(txid: match.txid, deltaSat: match.deltaSat)
                    )
                    if states[address]?.wallet == nil {
                        var state = states[address] ?? AddressState(chain: chain, address: address)
                        state.wallet = match.ref
                        let checked = try wallets.state(wallet.id)?[match.ref.branch].checkedUpTo ?? -1
                        if state.summary == nil, stored[address] == nil, match.ref.index <= checked {
                            state.summary = AddressSummary.empty(address)
                        }
                        states[address] = state
                    }
                }
            }
            for (address, state) in states.sorted(by: { $0.key < $1.key }) {
                let walletEntry = try state.wallet.flatMap { ref -> AddressBook.Entry? in
                    guard let wallet = walletBook.wallets[ref.wallet], let walletState = try wallets.state(ref.wallet)
                    else { return nil }
                    return wallet.entry(
                        address: address,
                        ref: ref,
                        since: walletState.since,
                        issuedLabel: try wallets.issuedLabel(ref)
                    )
                }
                guard let entry = walletEntry ?? book.entries[address] else { continue }
                let context = AddressReducer.Context(
                    chain: chain,
                    entry: entry,
                    prices: prices,
                    blockHashes: next.hashes,
                    now: now
                )
                var updated = state
                var emitted: [NewEvent] = []
                var addressEvents: [NewEvent] = []
                if let fork = floor {
                    (updated, emitted) = AddressReducer.revert(
                        updated,
                        fork: fork,
                        newChain: newChain,
                        context: context
                    )
                    addressEvents += emitted
                }
                for (position, block) in scanned.enumerated() {
                    guard let txs = entry.wallet == nil ? block.matches[address] : walletMatches[address]?[position]
                    else { continue }
                    (updated, emitted) = AddressReducer.scanned(
                        updated,
                        txs,
                        block: block.block,
                        tipHeight: tipHeight,
                        context: context
                    )
                    addressEvents += emitted
                }
                (updated, emitted) = AddressReducer.tip(updated, height: tipHeight, context: context)
                addressEvents += emitted
                events += addressEvents
                if updated != stored[address] { try txn.putAddressState(updated) }
                if let ref = entry.wallet {
                    try wallets.record(ref, before: stored[address], after: updated, events: addressEvents)
                }
            }
            events += try wallets.finish()
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
