import WatcherCore
import WatcherJSON

/// Why a followed mempool transaction vanished (`address.tx.replaced`), and what replaced it. The outputs it spent
/// are kept on the tracked transaction (``AddressState/TrackedTx/spends``); a transaction of the same fresh history
/// that spends one of them names the replacement at no cost, else the providers are asked who spends them
/// (``Observation/spends``, ``spendQuestions(_:history:lookups:tipHeight:context:)``).
extension AddressReducer {
    /// What became of a vanished transaction.
    public struct Replacement: Sendable, Hashable {
        /// `data.reason` of `address.tx.replaced`.
        public enum Reason: String, Sendable, Hashable {
            /// Another transaction spends one of its inputs.
            case replaced
            /// Its inputs exist and nothing spends them: the mempool dropped it (expiry, size limit, restart).
            case evicted
            /// An output it spent no longer exists: the transaction that made it left the chain (a reorg) or the
            /// mempool.
            case inputsReorgedAway = "inputs reorged away"
            /// No provider can tell which.
            case unknown = "dropped from the mempool"
        }

        /// Why it vanished.
        public var reason: Reason
        /// The transaction spending one of the same inputs, when a provider names it.
        public var replacedBy: String?
        /// The replacement's net effect on the address when it touches the address too: it is then followed as a
        /// transaction of its own.
        public var followedDeltaSat: Int64?

        /// Nothing known.
        public static let unknown = Replacement(reason: .unknown)

        /// Creates an answer.
        public init(reason: Reason, replacedBy: String? = nil, followedDeltaSat: Int64? = nil) {
            self.reason = reason
            self.replacedBy = replacedBy
            self.followedDeltaSat = followedDeltaSat
        }
    }

    /// What replaced `tx`, from the outputs it spent: a transaction of `history` spending one of them, else the
    /// providers' answers (`spends`): a named or unnamed spender (`replaced`), an output whose transaction is gone
    /// (`inputs reorged away`), every output there and unspent (`evicted`); anything less is `unknown`.
    static func replacement(
        of tx: AddressState.TrackedTx,
        history: [AddressTx]?,
        spends: [TxOutpoint: OutputSpend]
    ) -> Replacement {
        guard let outpoints = tx.spends, !outpoints.isEmpty else { return .unknown }
        let history = history ?? []
        if let rival = rival(of: tx, in: history) {
            return Replacement(reason: .replaced, replacedBy: rival.txid, followedDeltaSat: rival.deltaSat)
        }
        let answers = outpoints.map { spends[$0] }
        for case .spent(let spender)? in answers where spender != tx.txid {
            let followed = spender.flatMap { id in history.first { $0.txid == id } }
            return Replacement(reason: .replaced, replacedBy: spender, followedDeltaSat: followed?.deltaSat)
        }
        if answers.contains(.parentMissing) { return Replacement(reason: .inputsReorgedAway) }
        if answers.allSatisfy({ $0 == .unspent }) { return Replacement(reason: .evicted) }
        return .unknown
    }

    /// The newest transaction of `history` other than `tx` that spends one of the outputs `tx` spent.
    static func rival(of tx: AddressState.TrackedTx, in history: [AddressTx]) -> AddressTx? {
        guard let outpoints = tx.spends else { return nil }
        let spent = Set(outpoints)
        return history.first { item in
            item.txid != tx.txid && (item.facts?.outpoints ?? []).contains { spent.contains($0) }
        }
    }

    /// The outputs to ask the providers about, by the txid that made them: those spent by the transactions that are
    /// leaving the address's state in this observation (mempool ones a complete `history` no longer lists and no
    /// lookup found, ``dropCandidates(_:history:)``; confirmed ones missing from it that the lookup says the provider
    /// no longer knows, ``confirmedCandidates(_:history:tipHeight:context:)``), unless a transaction of the history
    /// already spends one of them. Older transactions the history did not reach are not asked about.
    public static func spendQuestions(
        _ state: AddressState,
        history: [AddressTx],
        lookups: [String: ChainTransaction?],
        tipHeight: Int?,
        context: Context
    ) -> [String: [Int]] {
        let mempool = dropCandidates(state, history: history).filter { txid in
            if case .some(.some) = lookups[txid] { return false }
            return true
        }
        let confirmed = confirmedCandidates(state, history: history, tipHeight: tipHeight, context: context)
            .filter { txid in
                if case .some(.none) = lookups[txid] { return true }
                return false
            }
        var questions: [String: Set<Int>] = [:]
        for txid in mempool + confirmed {
            guard let tx = state.txs[txid], let outpoints = tx.spends, rival(of: tx, in: history) == nil else {
                continue
            }
            for outpoint in outpoints { questions[outpoint.txid, default: []].insert(outpoint.vout) }
        }
        return questions.mapValues { $0.sorted() }
    }

    /// The outputs a transaction spends stop mattering once it is settled: they are forgotten.
    static func forgetSettledSpends(_ state: inout AddressState, tipHeight: Int?, context: Context) {
        for (txid, tx) in state.txs where tx.spends != nil && isSettled(tx, tipHeight: tipHeight, context: context) {
            state.txs[txid]?.spends = nil
        }
    }

    /// `data` members of `address.tx.replaced` beyond the transaction's.
    static func replacementData(_ replacement: Replacement) -> [JSONValue.Member] {
        [
            .init("reason", .string(replacement.reason.rawValue)),
            .init("replacedBy", .optional(replacement.replacedBy)),
            .init(
                "replacementFollowed",
                replacement.replacedBy == nil ? .null : .bool(replacement.followedDeltaSat != nil)
            ),
            .init("replacementDeltaSat", replacement.followedDeltaSat.map(JSONValue.sats) ?? .null),
        ]
    }

    /// Remembers what replaced `txid` on the address, when a provider named it.
    static func remember(_ replacement: Replacement, of txid: String, in state: inout AddressState) {
        guard let by = replacement.replacedBy else { return }
        var kept = state.replacements ?? []
        kept.removeAll { $0.txid == txid }
        kept.append(.init(txid: txid, replacedBy: by))
        state.replacements = Array(kept.suffix(AddressState.keptReplacements))
    }
}
