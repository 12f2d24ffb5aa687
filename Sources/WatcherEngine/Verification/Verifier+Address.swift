import WatcherCore
import WatcherJSON
import WatcherRules

/// An address history checked against the other providers before the reducer sees it.
struct VerifiedHistory: Sendable {
    /// The history with every withheld confirmation turned back into a mempool transaction, and every agreed one
    /// in the agreed block.
    var history: [AddressTx]
    /// Mempool lookups likewise.
    var lookups: [String: ChainTransaction?]
    /// The providers that hold each agreed confirmation.
    var verifiedBy: [String: [String]] = [:]
    /// Transactions whose confirmation is withheld: the address is read again next round.
    var withheld: Set<String> = []
    /// `provider.disagreed` events.
    var events: [NewEvent] = []
    /// The provider whose history it is (`data.seenBy` of mempool events).
    var source: String?

    /// Records on `state` which providers held each agreed confirmation (what a payment request's `verifiedBy`
    /// names).
    func stamp(_ state: inout AddressState) {
        for (txid, by) in verifiedBy where state.txs[txid]?.blockHeight != nil {
            state.txs[txid]?.verifiedBy = by
        }
    }

    /// `events` with `data.verifiedBy` on confirmations and `data.seenBy` on mempool payments, and the
    /// disagreements after them.
    func decorate(_ reduced: [NewEvent]) -> [NewEvent] {
        reduced.map { event in
            let txid = event.fact.count > 2 ? event.fact[2] : ""
            switch event.type {
            case "address.tx.confirmed":
                guard let by = verifiedBy[txid] else { return event }
                return event.addingData([.init("verifiedBy", .array(by.map(JSONValue.string)))])
            case "address.tx.unconfirmed":
                guard let source else { return event }
                return event.addingData([.init("seenBy", .array([.string(source)]))])
            default:
                return event
            }
        } + events
    }
}

extension Verifier {
    /// Checks the confirmations `history` (from `source`) would announce: transactions in a block the state does
    /// not hold them in, except a first observation's silent baseline (below `since`).
    func verify(
        _ history: [AddressTx],
        lookups: [String: ChainTransaction?],
        source: String?,
        stored: AddressState?,
        context reducer: AddressReducer.Context,
        tipHeight: Int?
    ) async throws -> VerifiedHistory {
        var result = VerifiedHistory(history: history, lookups: lookups, source: source)
        let address = reducer.entry.address
        let baseline = stored?.summary == nil
        let since = stored?.since ?? reducer.entry.from ?? tipHeight.map { $0 + 1 } ?? .max
        for index in history.indices {
            let item = history[index]
            guard let height = item.blockHeight else { continue }
            let hash = item.blockHash ?? reducer.blockHashes[height]
            if let known = stored?.txs[item.txid], known.blockHeight == height,
                hash == nil || known.blockHash == nil || known.blockHash == hash
            {
                continue
            }
            if baseline, height < since { continue }
            let claim = source.map { Agreement.Said($0, .block(height: height, hash: hash, deltaSat: item.deltaSat)) }
            let agreed = try await check(
                claim,
                txid: item.txid,
                address: address,
                into: &result,
                reducer,
                tipHeight: tipHeight
            )
            if case .block(let height, let hash, _)? = agreed {
                result.history[index].blockHeight = height
                result.history[index].blockHash = hash
            } else {
                result.history[index].blockHeight = nil
                result.history[index].blockHash = nil
            }
        }
        for txid in lookups.keys.sorted() {
            guard case .some(.some(let tx)) = lookups[txid], let height = tx.blockHeight else { continue }
            // Already held in that block (a confirmed transaction a lagging history left out): nothing new to check.
            if let known = stored?.txs[txid], known.blockHeight == height,
                tx.blockHash == nil || known.blockHash == nil || known.blockHash == tx.blockHash
            {
                continue
            }
            let agreed = try await check(
                nil,
                txid: txid,
                address: address,
                into: &result,
                reducer,
                tipHeight: tipHeight
            )
            var checked = tx
            if case .block(let height, let hash, _)? = agreed {
                checked.blockHeight = height
                checked.blockHash = hash
            } else {
                checked.blockHeight = nil
                checked.blockHash = nil
            }
            result.lookups[txid] = .some(checked)
        }
        return result
    }

    /// Asks about one transaction and records the verdict; returns the agreed block, `nil` when withheld.
    private func check(
        _ claim: Agreement.Said?,
        txid: String,
        address: String,
        into result: inout VerifiedHistory,
        _ reducer: AddressReducer.Context,
        tipHeight: Int?
    ) async throws -> Agreement.Answer? {
        let key = AgreementMemory.key(txid, claim)
        let said: [Agreement.Said]
        let verdict: Agreement.Verdict
        if let known = memory.entry(key, tip: tipHeight) {
            (said, verdict) = (known.said, known.verdict)
        } else {
            var onStoredChain = false
            if case .block(let height, let hash?, _)? = claim?.answer {
                onStoredChain = reducer.blockHashes[height] == hash
            }
            let holders = memory.holders(key, tip: tipHeight, onStoredChain: onStoredChain)
            said = try await answers(claim, txid: txid, address: address, holders: holders)
            verdict = Agreement.decide(said, agree: agree)
            let asked = providers.filter { $0 != claim?.provider }.count
            memory.remember(key, said, verdict, claimed: claim != nil, asked: asked, tip: tipHeight)
        }
        let scene = Agreement.Scene(
            chain: reducer.chain,
            watch: reducer.entry.watch,
            address: address,
            txid: txid,
            now: reducer.now
        )
        if let event = Agreement.disagreed(said, verdict: verdict, agree: agree, scene: scene) {
            result.events.append(event)
        }
        guard let agreed = verdict.agreed else {
            result.withheld.insert(txid)
            return nil
        }
        result.verifiedBy[txid] = verdict.verifiedBy
        return agreed
    }
}
