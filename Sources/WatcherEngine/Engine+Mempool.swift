import WatcherConfiguration
import WatcherCore

/// The loop beside a scanned chain job that reads the mempool (see ``ChainDriver/pollMempool(_:push:every:)``).
extension Engine {
    /// The mempool loop of `job`: its body and the wake-up its push rings; `nil` unless `job` is a chain job that
    /// scans blocks with a provider that reads the mempool.
    func mempoolRunner(for job: JobPlan.Job) -> (body: @Sendable () async throws -> Void, wake: BlockWakeup?)? {
        guard case .chain(let chain, let watch, _, _, let headerProviders, let scan?) = job.work,
            !context.providers(scan.providers, serving: .mempool).isEmpty
        else { return nil }
        var driver = ChainDriver(
            chain: chain,
            watch: watch,
            providers: job.providers,
            headerProviders: headerProviders,
            context: context,
            maxBackfill: 0,
            announce: false,
            book: book(chain),
            txWatches: [],
            scan: scan
        )
        driver.wallets = wallets[chain] ?? WalletBook()
        let configured = driver
        let memory = MempoolMemory()
        let push = pushStates[chain]
        let every = job.every
        return ({ try await configured.pollMempool(memory, push: push, every: every) }, push?.mempoolWake)
    }
}
