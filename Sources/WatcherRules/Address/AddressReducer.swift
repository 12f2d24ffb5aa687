import Foundation
import WatcherCore

/// The pure rules of one followed address: `reduce(state, observation, now) -> (state, events)`.
///
/// - ``observe(_:_:context:)``: a fresh summary and, when it changed, the history (newest first).
/// - ``tip(_:height:context:)``: a new tip; confirmation thresholds crossed.
/// - ``revert(_:fork:newChain:context:)``: a reorg; transactions in replaced blocks go back to unconfirmed.
///
/// The first observation is a baseline: history confirmed below ``AddressState/since`` is recorded silently (every
/// threshold counted as announced), while mempool transactions and transactions confirmed at or above `since`
/// are announced, so a payment that lands between start-up and the first poll is never lost.
public enum AddressReducer {
    /// What the rules need besides the state and the observation.
    public struct Context: Sendable {
        /// The chain.
        public var chain: String
        /// The followed address with its label, thresholds and watch.
        public var entry: FollowedAddress
        /// Latest prices, for fiat values.
        public var prices: [PriceQuote]
        /// Main-chain block hashes by height (the chain memory), for providers that give heights only.
        public var blockHashes: [Int: String]
        /// The time put in event envelopes.
        public var now: Date

        /// Creates a context.
        public init(
            chain: String,
            entry: FollowedAddress,
            prices: [PriceQuote] = [],
            blockHashes: [Int: String] = [:],
            now: Date
        ) {
            self.chain = chain
            self.entry = entry
            self.prices = prices
            self.blockHashes = blockHashes
            self.now = now
        }

        var builder: EventBuilder {
            let now = self.now
            return EventBuilder(now: { now })
        }
    }

    /// One poll's answer about the address.
    public struct Observation: Sendable {
        /// The summary.
        public var summary: AddressSummary
        /// The history, newest first; `nil` when it was not fetched (the summary had not changed).
        public var history: [AddressTx]?
        /// The history holds every transaction newer than the known ones (so a missing mempool tx vanished).
        public var complete: Bool
        /// The chain tip height, for confirmations.
        public var tipHeight: Int?
        /// Mempool transactions missing from a complete history, looked up one by one: `nil` when the provider
        /// does not know the txid. A candidate without an entry is taken as gone. Confirmed transactions missing
        /// from a complete history (``confirmedCandidates(_:history:tipHeight:context:)``) are looked up too.
        public var lookups: [String: ChainTransaction?]
        /// Hashes of blocks the provider no longer has at their heights (asked for the blocks of confirmed
        /// transactions missing from a complete history): proof that such a transaction's block was replaced,
        /// not that the provider lags.
        public var replacedBlocks: Set<String>
        /// Who spends the outputs that vanished transactions spent, as the providers answered
        /// (``AddressReducer/spendQuestions(_:history:lookups:)``): what names a replacement and its reason.
        public var spends: [TxOutpoint: OutputSpend]

        /// Creates an observation.
        public init(
            summary: AddressSummary,
            history: [AddressTx]?,
            complete: Bool,
            tipHeight: Int?,
            lookups: [String: ChainTransaction?] = [:],
            replacedBlocks: Set<String> = [],
            spends: [TxOutpoint: OutputSpend] = [:]
        ) {
            self.summary = summary
            self.history = history
            self.complete = complete
            self.tipHeight = tipHeight
            self.lookups = lookups
            self.replacedBlocks = replacedBlocks
            self.spends = spends
        }
    }

    /// Applies one observation.
    public static func observe(_ state: AddressState, _ observation: Observation, context: Context)
        -> (AddressState, [NewEvent])
    {
        let before = state
        var state = state
        if state.wallet == nil { state.wallet = context.entry.wallet }
        var observation = observation
        observation.summary = countingProven(observation, in: state)
        let summary = observation.summary
        // A summary with fewer confirmed transactions than the stored one, while no reorg has reset it, comes from
        // a provider behind the others: taking it would announce the balance going back and forth.
        if let old = state.summary?.txCount, let new = summary.txCount, new < old { return (state, []) }
        let baseline = state.summary == nil
        if baseline, state.since == nil {
            state.since = context.entry.from ?? observation.tipHeight.map { $0 + 1 }
        }
        var events: [NewEvent] = []
        // A block holding one of the address's transactions is on the chain: the tip is at least that high, even
        // when the stored tip has not caught up yet (the tip job runs on its own schedule).
        let highest = observation.history?.compactMap(\.blockHeight).max()
        let tipHeight = [observation.tipHeight, highest].compactMap { $0 }.max()
        if let history = observation.history {
            events += apply(history, to: &state, baseline: baseline, observation: observation, context: context)
        }
        observation.tipHeight = tipHeight
        state.summary = summary
        // A confirmed transaction sent back to the mempool here is looked for again on the next poll, even when
        // the summary stands still (as after a reorg the chain walk saw).
        if state.txs.values.contains(where: { $0.blockHeight == nil && before.txs[$0.txid]?.blockHeight != nil }) {
            state.summary?.txCount = nil
        }
        state.updatedAt = context.now
        events += confirmations(&state, tipHeight: tipHeight, context: context)
        prune(&state, tipHeight: tipHeight, context: context)
        events += balanceChanges(events, before: before, after: state, context: context)
        return (state, events)
    }

    static func apply(
        _ history: [AddressTx],
        to state: inout AddressState,
        baseline: Bool,
        observation: Observation,
        context: Context
    ) -> [NewEvent] {
        var events: [NewEvent] = []
        let candidates =
            observation.complete
            ? Set(confirmedCandidates(state, history: history, tipHeight: observation.tipHeight, context: context))
            : []
        let since = state.since ?? .max
        let tipHeight = observation.tipHeight
        for item in history.reversed() {
            let known = state.txs[item.txid]
            guard let height = item.blockHeight else {
                // Unconfirmed. A known confirmed tx reported unconfirmed comes from a lagging provider, or from a
                // reorg: it goes back to the mempool only when its block is known to be replaced.
                if let known, known.blockHeight != nil,
                    blockReplaced(known, history: history, observation: observation, context: context)
                {
                    events.append(reverted(known, balance: observation.summary.balanceSat, context: context))
                    state.txs[item.txid] = AddressState.TrackedTx(
                        txid: item.txid,
                        blockHeight: nil,
                        blockHash: nil,
                        deltaSat: item.deltaSat,
                        spends: item.facts?.outpoints ?? known.spends
                    )
                } else if known == nil {
                    var tx = AddressState.TrackedTx(
                        txid: item.txid,
                        blockHeight: nil,
                        blockHash: nil,
                        deltaSat: item.deltaSat,
                        spends: item.facts?.outpoints
                    )
                    tx.facts = item.facts?.kept
                    state.txs[item.txid] = tx
                    events.append(
                        unconfirmed(tx, facts: item.facts, balance: observation.summary.balanceSat, context: context)
                    )
                } else if let known {
                    // Known from a push, which names no inputs (the history does), or whose facts a push could not
                    // complete (the count of unconfirmed inputs): this read fills what is missing.
                    if known.spends == nil, let outpoints = item.facts?.outpoints {
                        state.txs[item.txid]?.spends = outpoints
                    }
                    if let read = item.facts {
                        state.txs[item.txid]?.facts = known.facts.map { $0.filling(from: read.kept) } ?? read.kept
                    }
                }
                continue
            }
            let hash = item.blockHash ?? context.blockHashes[height]
            if let known, known.blockHeight == height, hash == nil || known.blockHash == nil || known.blockHash == hash
            {
                state.txs[item.txid]?.blockHash = known.blockHash ?? hash
                state.txs[item.txid]?.deltaSat = item.deltaSat
                if known.spends == nil { state.txs[item.txid]?.spends = item.facts?.outpoints }
                continue
            }
            if let known, known.blockHeight != nil {
                // Moved to another block before the chain walk saw the reorg: the old confirmation is void.
                events.append(reverted(known, balance: observation.summary.balanceSat, context: context))
            }
            var tx = AddressState.TrackedTx(
                txid: item.txid,
                blockHeight: height,
                blockHash: hash,
                deltaSat: item.deltaSat,
                spends: item.facts?.outpoints ?? known?.spends
            )
            if baseline, height < since {
                tx.announced = context.entry.thresholds
            } else {
                events.append(
                    confirmed(tx, tipHeight: tipHeight, balance: observation.summary.balanceSat, context: context)
                )
            }
            state.txs[item.txid] = tx
        }
        if observation.complete {
            events += vanished(history, from: &state, observation: observation, context: context)
            events += vanishedConfirmed(
                candidates,
                history: history,
                from: &state,
                observation: observation,
                context: context
            )
        }
        return events
    }

    /// A new tip: announces the confirmation thresholds it crosses.
    public static func tip(_ state: AddressState, height: Int, context: Context) -> (AddressState, [NewEvent]) {
        var state = state
        let events = confirmations(&state, tipHeight: height, context: context)
        prune(&state, tipHeight: height, context: context)
        return (state, events)
    }

    /// A reorg with its fork point: every transaction confirmed above it in a block that is not on the new chain
    /// goes back to unconfirmed (`address.tx.reverted`); the next poll finds where it went.
    /// - Parameter newChain: hashes of the new chain by height, where known.
    public static func revert(_ state: AddressState, fork: Int, newChain: [Int: String], context: Context)
        -> (AddressState, [NewEvent])
    {
        let before = state
        var state = state
        var events: [NewEvent] = []
        for txid in state.txs.keys.sorted() {
            guard let tx = state.txs[txid], let height = tx.blockHeight, height > fork else { continue }
            if let hash = tx.blockHash, newChain[height] == hash { continue }
            // The transaction's amount goes back from the confirmed balance to the unconfirmed one.
            state.summary?.balanceSat? -= tx.deltaSat
            state.summary?.unconfirmedBalanceSat? += tx.deltaSat
            events.append(reverted(tx, balance: state.summary?.balanceSat, context: context))
            state.txs[txid] = AddressState.TrackedTx(
                txid: txid,
                blockHeight: nil,
                blockHash: nil,
                deltaSat: tx.deltaSat,
                spends: tx.spends
            )
        }
        if !events.isEmpty {
            // The summary no longer stands: the next poll takes the provider's without the staleness check.
            state.summary?.txCount = nil
        }
        events += balanceChanges(events, before: before, after: state, context: context)
        return (state, events)
    }

    /// Announces thresholds crossed at `tipHeight`.
    static func confirmations(_ state: inout AddressState, tipHeight: Int?, context: Context) -> [NewEvent] {
        guard let tipHeight else { return [] }
        var events: [NewEvent] = []
        for txid in state.txs.keys.sorted() {
            guard var tx = state.txs[txid], let height = tx.blockHeight, tipHeight >= height else { continue }
            let count = tipHeight - height + 1
            for threshold in context.entry.thresholds where count >= threshold && !tx.announced.contains(threshold) {
                tx.announced.append(threshold)
                events.append(crossed(tx, threshold: threshold, balance: state.summary?.balanceSat, context: context))
            }
            state.txs[txid] = tx
        }
        return events
    }

    /// Most transactions remembered per address.
    public static let keptTransactions = 200

    /// Whether a transaction is past every threshold and `reorgSafety` more blocks: it is no longer followed.
    static func isSettled(_ tx: AddressState.TrackedTx, tipHeight: Int?, context: Context) -> Bool {
        guard let height = tx.blockHeight, let tipHeight else { return false }
        let highest = context.entry.thresholds.max() ?? 1
        return tipHeight - height + 1 >= highest + context.entry.reorgSafety
    }

    /// Forgets the oldest settled transactions beyond ``keptTransactions``.
    static func prune(_ state: inout AddressState, tipHeight: Int?, context: Context) {
        forgetSettledSpends(&state, tipHeight: tipHeight, context: context)
        guard state.txs.count > keptTransactions else { return }
        let settled = state.txs.values.filter { isSettled($0, tipHeight: tipHeight, context: context) }
        let excess = state.txs.count - keptTransactions
        for tx in settled.sorted(by: { ($0.blockHeight ?? 0, $0.txid) < ($1.blockHeight ?? 0, $1.txid) }).prefix(excess)
        {
            state.txs[tx.txid] = nil
        }
    }
}
