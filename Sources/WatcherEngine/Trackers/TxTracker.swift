import WatcherCore
import WatcherStorage

/// Follows one txid until its highest confirmation threshold, then stops asking.
struct TxTracker: Sendable {
    struct State: Codable, Sendable, Equatable {
        var blockHeight: Int?
        var blockHash: String?
        var announced: [Int] = []
    }

    let watch: WatchConfig
    let context: EngineContext

    func poll() async throws {
        guard let txid = watch.txid else { return }
        let watchID = watch.id
        let thresholds = watch.confirmations.isEmpty ? [1, 3, 6] : watch.confirmations
        let stored = try context.store.read { try $0.watchState(State.self, watch: watchID) } ?? State()
        if let highest = thresholds.max(), stored.announced.contains(highest) { return }
        let tx = try await context.ask(watch.providers, .refresh) { try await $0.transaction(txid) }
        let chain = watch.chain
        let builder = context.events
        try await context.commit { txn in
            var state = try txn.watchState(State.self, watch: watchID) ?? State()
            if state.blockHash != tx.blockHash || state.blockHeight != tx.blockHeight {
                state.blockHeight = tx.blockHeight
                state.blockHash = tx.blockHash
                state.announced = []
            }
            var events: [NewEvent] = []
            if let height = tx.blockHeight, let tip = try txn.tip(chain: chain)?.height, tip >= height {
                let confirmations = tip - height + 1
                for threshold in thresholds.sorted()
                where confirmations >= threshold && !state.announced.contains(threshold) {
                    state.announced.append(threshold)
                    events.append(
                        builder.make(
                            type: "tx.confirmations",
                            fact: [chain, txid, tx.blockHash ?? "h\(height)", "\(threshold)"],
                            source: watchID,
                            subject: txid,
                            data: [
                                .init("chain", .string(chain)), .init("txid", .string(txid)),
                                .init("blockHeight", .int(height)), .init("blockHash", .optional(tx.blockHash)),
                                .init("confirmations", .int(threshold)),
                                .init("feeSat", tx.feeSat.map(JSONValue.sats) ?? .null),
                            ]
                        )
                    )
                }
            }
            try txn.putWatchState(state, watch: watchID)
            return events
        }
    }
}
