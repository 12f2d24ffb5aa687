import WatcherConfiguration
import WatcherCore
import WatcherRules

/// The loop beside a scanned chain job that reads the mempool (``MempoolJob``).
extension Engine {
    /// The mempool loop of `job`: its body and the wake-up its push rings; `nil` unless `job` is a chain job that
    /// scans blocks with a provider that reads the mempool.
    func mempoolRunner(for job: JobPlan.Job) -> (body: @Sendable () async throws -> Void, wake: BlockWakeup?)? {
        guard case .chain(let chain, _, _, _, _, let scan?) = job.work,
            !context.providers(scan.providers, serving: .mempool).isEmpty
        else { return nil }
        let push = pushStates[chain]
        let mempool = MempoolJob(
            chain: chain,
            providers: job.providers,
            context: context,
            targets: ScanTargets(
                chain: chain,
                context: context,
                book: book(chain),
                wallets: wallets[chain] ?? WalletBook(),
                scan: scan
            ),
            memory: Locked(MempoolRecall()),
            push: push,
            every: job.every
        )
        return (mempool.round, push?.mempoolWake)
    }
}
