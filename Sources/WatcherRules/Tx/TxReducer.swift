import Foundation
import WatcherCore
import WatcherJSON

/// The pure rules of a `tx` watch: thresholds crossed as the tip moves, and `tx.reverted` when the block holding
/// the transaction leaves the main chain before it is settled (`reorgSafety` blocks past the highest threshold).
public enum TxReducer {
    /// A followed transaction's progress.
    public struct State: Codable, Sendable, Equatable {
        /// The confirming block's height, `nil` while unconfirmed.
        public var blockHeight: Int?
        /// The confirming block's hash.
        public var blockHash: String?
        /// Thresholds announced for that block.
        public var announced: [Int] = []
        /// The fee, once known.
        public var feeSat: Int64?
        /// With `agree` above 1, the providers that hold the transaction in its block (`data.verifiedBy` of its
        /// thresholds); `nil` otherwise, and then not stored.
        public var verifiedBy: [String]?

        /// Creates a state.
        public init(blockHeight: Int? = nil, blockHash: String? = nil, announced: [Int] = [], feeSat: Int64? = nil) {
            self.blockHeight = blockHeight
            self.blockHash = blockHash
            self.announced = announced
            self.feeSat = feeSat
        }
    }

    /// What the rules need.
    public struct Context: Sendable {
        /// The chain.
        public var chain: String
        /// The watch id.
        public var watch: String
        /// The txid.
        public var txid: String
        /// Thresholds to announce.
        public var thresholds: [Int]
        /// Blocks followed past the highest threshold.
        public var reorgSafety: Int
        /// The time put in envelopes.
        public var now: Date

        /// Creates a context.
        public init(chain: String, watch: String, txid: String, thresholds: [Int], reorgSafety: Int, now: Date) {
            self.chain = chain
            self.watch = watch
            self.txid = txid
            self.thresholds = thresholds.isEmpty ? [1, 3, 6] : thresholds.sorted()
            self.reorgSafety = reorgSafety
            self.now = now
        }
    }

    /// Whether the transaction is past every threshold plus `reorgSafety` blocks: the watch stops asking.
    public static func isSettled(_ state: State, tipHeight: Int?, context: Context) -> Bool {
        guard let height = state.blockHeight, let tipHeight else { return false }
        return tipHeight - height + 1 >= (context.thresholds.max() ?? 1) + context.reorgSafety
    }

    /// The provider's answer about the transaction, with the tip.
    public static func observe(_ state: State, _ tx: ChainTransaction, tipHeight: Int?, context: Context)
        -> (State, [NewEvent])
    {
        var state = state
        var events: [NewEvent] = []
        state.feeSat = tx.feeSat ?? state.feeSat
        if let height = tx.blockHeight {
            if state.blockHeight != height || (tx.blockHash != nil && state.blockHash != tx.blockHash) {
                if state.blockHeight != nil { events.append(reverted(state, context: context)) }
                state.blockHeight = height
                state.blockHash = tx.blockHash
                state.announced = []
            }
        }
        // An unconfirmed answer about a confirmed tx comes from a lagging provider or a reorg the chain walk
        // reports itself; it changes nothing here.
        let (next, crossed) = tip(state, height: tipHeight, context: context)
        return (next, events + crossed)
    }

    /// A new tip: thresholds crossed.
    public static func tip(_ state: State, height tipHeight: Int?, context: Context) -> (State, [NewEvent]) {
        guard let tipHeight, let height = state.blockHeight, tipHeight >= height else { return (state, []) }
        var state = state
        var events: [NewEvent] = []
        let count = tipHeight - height + 1
        for threshold in context.thresholds where count >= threshold && !state.announced.contains(threshold) {
            state.announced.append(threshold)
            events.append(
                make(
                    "tx.confirmations",
                    fact: [state.blockHash ?? "h\(height)", "\(threshold)"],
                    state,
                    confirmations: threshold,
                    context: context,
                    extra: state.verifiedBy.map { [.init("verifiedBy", .array($0.map(JSONValue.string)))] } ?? []
                )
            )
        }
        return (state, events)
    }

    /// A reorg: if the transaction's block is above the fork and not on the new chain, `tx.reverted`.
    public static func revert(_ state: State, fork: Int, newChain: [Int: String], context: Context)
        -> (State, [NewEvent])
    {
        guard let height = state.blockHeight, height > fork else { return (state, []) }
        if let hash = state.blockHash, newChain[height] == hash { return (state, []) }
        return (State(feeSat: state.feeSat), [reverted(state, context: context)])
    }

    static func reverted(_ state: State, context: Context) -> NewEvent {
        make(
            "tx.reverted",
            fact: [state.blockHash ?? "h\(state.blockHeight ?? -1)"],
            state,
            confirmations: 0,
            context: context,
            extra: [.init("reason", .string("block reorged out"))]
        )
    }

    static func make(
        _ type: String,
        fact: [String],
        _ state: State,
        confirmations: Int,
        context: Context,
        extra: [JSONValue.Member] = []
    ) -> NewEvent {
        let now = context.now
        return EventBuilder(now: { now }).make(
            type: type,
            fact: [context.chain, context.txid] + fact,
            source: context.watch,
            subject: context.txid,
            data: [
                .init("chain", .string(context.chain)), .init("txid", .string(context.txid)),
                .init("blockHeight", .integer(state.blockHeight)),
                .init("blockHash", .optional(state.blockHash)),
                .init("confirmations", .integer(confirmations)),
                .init("feeSat", state.feeSat.map(JSONValue.sats) ?? .null),
            ] + extra
        )
    }
}
