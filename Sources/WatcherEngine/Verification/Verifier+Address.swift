import WatcherCore
import WatcherRules

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
            if VerifiedHistory.held(item.txid, height: height, hash: hash, in: stored) || (baseline && height < since) {
                continue
            }
            let claim = source.map { Agreement.Said($0, .block(height: height, hash: hash, deltaSat: item.deltaSat)) }
            let agreed = try await check(
                claim,
                txid: item.txid,
                address: address,
                into: &result,
                reducer,
                tipHeight: tipHeight
            )
            (result.history[index].blockHeight, result.history[index].blockHash) = VerifiedHistory.block(agreed)
        }
        // Payments in the mempool, where the watch wants more than the provider in charge to report them
        // (`zeroConf.minSeenBy`): asked of the others until enough have, each round while short.
        if seenBy > 1, let source {
            for item in history where item.blockHeight == nil && item.deltaSat > 0 {
                let known = stored?.txs[item.txid]?.seenBy ?? []
                guard Set(known + [source]).count < seenBy else { continue }
                result.seenBy[item.txid] = try await seen(item.txid, known: [source] + known.filter { $0 != source })
            }
        }
        for txid in lookups.keys.sorted() {
            guard case .some(.some(let tx)) = lookups[txid], let height = tx.blockHeight else { continue }
            // Already held in that block (a confirmed transaction a lagging history left out): nothing new to check.
            if VerifiedHistory.held(txid, height: height, hash: tx.blockHash, in: stored) { continue }
            let agreed = try await check(
                nil,
                txid: txid,
                address: address,
                into: &result,
                reducer,
                tipHeight: tipHeight
            )
            var checked = tx
            (checked.blockHeight, checked.blockHash) = VerifiedHistory.block(agreed)
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
        let key = AgreementCache.key(txid, claim)
        let said: [Agreement.Said]
        let verdict: Agreement.Verdict
        if let known = memory.withLock({ $0.entry(key, tip: tipHeight) }) {
            (said, verdict) = (known.said, known.verdict)
        } else {
            var onStoredChain = false
            if case .block(let height, let hash?, _)? = claim?.answer {
                onStoredChain = reducer.blockHashes[height] == hash
            }
            let holders = memory.withLock { $0.holders(key, tip: tipHeight, onStoredChain: onStoredChain) }
            said = try await answers(claim, txid: txid, address: address, holders: holders)
            verdict = Agreement.decide(said, agree: agree)
            let asked = providers.filter { $0 != claim?.provider }.count
            memory.withLock { $0.remember(key, said, verdict, claimed: claim != nil, asked: asked, tip: tipHeight) }
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
