import Logging
import Synchronization
import WatcherCore
import WatcherRules
import WatcherScheduler

/// The I/O around ``TipAgreement``: every trusted provider's tip, its hash at the shared height where its tip is
/// above it, and the standings that changed handed to the scheduler (which sets a provider aside and reports it).
struct AgreedTip: Sendable {
    let chain: String
    let trust: ChainTrust
    let context: EngineContext

    /// The tip `trust.agree` providers share, `nil` while they do not (the stored chain then stays where it is).
    /// Costs one tip request per provider per round, and one header request per provider above the shared height.
    func read(memory: ChainMemory) async throws -> BlockRef? {
        let context = self.context
        let tips = await withTaskGroup(of: (Int, BlockRef?).self) { group in
            for (index, id) in trust.providers.enumerated() {
                group.addTask { (index, try? await context.tip([id])) }
            }
            var tips = [BlockRef?](repeating: nil, count: trust.providers.count)
            for await (index, tip) in group { tips[index] = tip }
            return tips
        }
        try Task.checkCancellation()
        var reports = zip(trust.providers, tips).compactMap { id, tip in tip.map { TipAgreement.Report(id, tip: $0) } }
        if let shared = TipAgreement.sharedHeight(reports.map(\.tip), agree: trust.agree) {
            for index in reports.indices where reports[index].tip.height > shared {
                reports[index].hashAtShared = try? await context.ask([reports[index].provider], .tip) {
                    try await $0.block(.height(shared)).hash
                }
            }
        }
        let verdict = TipAgreement.decide(reports, agree: trust.agree, maxLag: trust.maxLag) { memory.hash(at: $0) }
        let changed = trust.standings.withLock { standings in
            let changed = TipAgreement.changes(from: standings, to: verdict.standings)
            standings.merge(verdict.standings) { _, new in new }
            return changed
        }
        for (provider, standing) in changed.sorted(by: { $0.key < $1.key }) {
            await context.scheduler.setAside(provider, reason: standing.reason)
        }
        if verdict.tip == nil {
            context.logger.debug(
                "no tip held by enough providers yet",
                metadata: [
                    "chain": "\(chain)", "agree": "\(trust.agree)",
                    "tips": "\(reports.map { "\($0.provider)@\($0.tip.height)" }.joined(separator: ", "))",
                ]
            )
        }
        return verdict.tip
    }
}
