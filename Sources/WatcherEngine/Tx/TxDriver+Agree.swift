import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherRules
import WatcherScheduler

/// A `tx` watch's confirmation checked against the other providers (`agree` above 1).
extension TxDriver {
    /// What a round adds to the reducer's answer: the providers that hold a newly agreed block (kept in the
    /// state, for `data.verifiedBy` of its thresholds), and the disagreements.
    struct Trust: Sendable {
        var verifiedBy: [String]?
        var events: [NewEvent] = []
    }

    /// `tx` as the reducer should see it: in the block `agree` providers hold, or unconfirmed while fewer do. A
    /// block the state already holds is not asked again.
    func verified(_ tx: ChainTransaction, source: String, stored: TxReducer.State?, context reducer: TxReducer.Context)
        async throws -> (ChainTransaction, Trust)
    {
        guard let height = tx.blockHeight,
            let verifier = Verifier(
                providers: watch.providers,
                agree: watch.agree,
                context: context,
                priority: .refresh
            )
        else { return (tx, Trust()) }
        if let stored, stored.blockHeight == height, tx.blockHash == nil || stored.blockHash == tx.blockHash {
            return (tx, Trust())
        }
        let claim = Agreement.Said(source, .block(height: height, hash: tx.blockHash, deltaSat: nil))
        let said = try await verifier.answers(claim, txid: tx.txid, address: nil)
        let verdict = Agreement.decide(said, agree: watch.agree)
        var trust = Trust()
        let scene = Agreement.Scene(
            chain: watch.chain,
            watch: watch.id,
            address: nil,
            txid: tx.txid,
            now: reducer.now
        )
        if let event = Agreement.disagreed(said, verdict: verdict, agree: watch.agree, scene: scene) {
            trust.events.append(event)
        }
        var checked = tx
        if case .block(let height, let hash, _)? = verdict.agreed {
            checked.blockHeight = height
            checked.blockHash = hash
            trust.verifiedBy = verdict.verifiedBy
        } else {
            checked.blockHeight = nil
            checked.blockHash = nil
        }
        return (checked, trust)
    }
}
