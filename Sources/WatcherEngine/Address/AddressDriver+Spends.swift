import WatcherCore
import WatcherRules

/// Who spends the outputs of followed transactions that vanished
/// (``AddressReducer/spendQuestions(_:history:lookups:tipHeight:context:)``): one request per parent transaction (Blockbook's
/// `/api/v2/tx/<parent>?spending=true`, Core's batch of `gettxspendingprevout` and `gettxout`), at most
/// ``maxLookups`` a round, on the watch's providers that can tell (``ChainCapabilities/spenders``). When none can,
/// the reason stays `dropped from the mempool`.
extension AddressDriver {
    /// The providers' answers for the vanished transactions of `stored` that `history` and `lookups` leave
    /// unexplained.
    func spendAnswers(
        _ stored: AddressState,
        history: [AddressTx],
        lookups: [String: ChainTransaction?],
        tipHeight: Int?,
        context reducerContext: AddressReducer.Context
    ) async throws -> [TxOutpoint: OutputSpend] {
        let capable = context.providers(providers, serving: .spenders)
        guard !capable.isEmpty else { return [:] }
        let questions = AddressReducer.spendQuestions(
            stored,
            history: history,
            lookups: lookups,
            tipHeight: tipHeight,
            context: reducerContext
        )
        var answers: [TxOutpoint: OutputSpend] = [:]
        for parent in questions.keys.sorted().prefix(Self.maxLookups) {
            guard let outputs = questions[parent] else { continue }
            let spends: [Int: OutputSpend]
            do {
                spends = try await context.ask(capable, priority) { try await $0.spends(of: parent, outputs: outputs) }
            } catch ProviderError.unsupported {
                continue
            }
            for (vout, spend) in spends where outputs.contains(vout) {
                answers[TxOutpoint(txid: parent, vout: vout)] = spend
            }
        }
        return answers
    }
}
