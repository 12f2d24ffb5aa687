import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The I/O around ``TxReducer`` for one `tx` watch: asks for the transaction until it is settled
/// (`reorgSafety` blocks past the highest threshold), and commits the reducer's answer.
struct TxDriver: Sendable {
    let watch: WatchConfig
    let context: EngineContext
    /// Who is asked, in failover order: the watch's providers, or reordered for a second opinion.
    var providers: [String]

    init(watch: WatchConfig, context: EngineContext) {
        self.watch = watch
        self.context = context
        self.providers = watch.providers
    }

    func poll() async throws {
        guard let txid = watch.txid else { return }
        let watchID = watch.id
        let chain = watch.chain
        let reducerContext = TxReducer.Context(
            chain: chain,
            watch: watchID,
            txid: txid,
            thresholds: watch.confirmations,
            reorgSafety: watch.reorgSafety,
            now: context.events.now()
        )
        let (stored, tipHeight) = try context.store.read { txn in
            (try txn.watchState(TxReducer.State.self, watch: watchID), try txn.tip(chain: chain)?.height)
        }
        if let stored, TxReducer.isSettled(stored, tipHeight: tipHeight, context: reducerContext) { return }
        let (source, answered) = try await context.ask(providers, .refresh) {
            ($0.id, try await $0.transaction(txid))
        }
        let (tx, trust) = try await verified(answered, source: source, stored: stored, context: reducerContext)
        try await context.commit { txn in
            var state = try txn.watchState(TxReducer.State.self, watch: watchID) ?? TxReducer.State()
            if let verifiedBy = trust.verifiedBy { state.verifiedBy = verifiedBy }
            let tip = try txn.tip(chain: chain)?.height
            let (next, events) = TxReducer.observe(state, tx, tipHeight: tip, context: reducerContext)
            try txn.putWatchState(next, watch: watchID)
            return events + trust.events
        }
    }
}
