import Foundation
import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherObservability
import WatcherStorage

/// The gauges `/metrics` computes when it is scraped, from the store, the health board and `/proc/self`: sink
/// lag and dead letters, chain tips, provider health and lag, followed addresses, the LMDB map and the process.
/// One short read transaction per scrape.
final class ScrapeCollector: Sendable {
    let store: Store
    let board: ProviderHealthBoard
    /// The config in force (a reload replaces it).
    let currentConfig: @Sendable () -> WatcherConfig
    let metrics: WatcherMetrics
    private let lastCPU = Mutex<Double>(0)

    init(
        store: Store,
        board: ProviderHealthBoard,
        config: @escaping @Sendable () -> WatcherConfig,
        metrics: WatcherMetrics
    ) {
        self.store = store
        self.board = board
        self.currentConfig = config
        self.metrics = metrics
    }

    private struct Snapshot {
        var last: UInt64 = 0
        var cursors: [String: UInt64] = [:]
        var oldestPending: [String: Date] = [:]
        var deadLetters: [String: Int] = [:]
        var tips: [String: BlockHeader] = [:]
        var accounts = 0
    }

    /// Reads and records every gauge.
    func collect() {
        let config = currentConfig()
        let sinks = config.sinks.map(\.id)
        let chains = Set(config.watches.filter { $0.kind != .price }.map(\.chain)).union(
            config.providers.filter(\.servesChain).map(\.chain)
        )
        let snapshot = try? store.read { txn in
            var snapshot = Snapshot(last: try txn.lastEventSeq(), cursors: try txn.cursors())
            for sink in sinks {
                let cursor = snapshot.cursors[sink] ?? 0
                if cursor < snapshot.last, let mark = try txn.appendMark(covering: cursor + 1) {
                    snapshot.oldestPending[sink] = mark.time
                }
            }
            for letter in try txn.deadLetters() { snapshot.deadLetters[letter.sink, default: 0] += 1 }
            for chain in chains { snapshot.tips[chain] = try txn.recentHeaders(chain: chain, limit: 1).first }
            snapshot.accounts = try txn.accounts().count
            return snapshot
        }
        let now = Date()
        if let snapshot {
            for sink in sinks {
                let cursor = min(snapshot.cursors[sink] ?? 0, snapshot.last)
                let age = snapshot.oldestPending[sink].map { max(0, now.timeIntervalSince($0)) } ?? 0
                metrics.sinkLag(sink, events: Int(snapshot.last - cursor), seconds: age)
                metrics.sinkDeadLetters(sink, snapshot.deadLetters[sink] ?? 0)
            }
            // Since this process saw the chain move; before that, since the stored tip's own timestamp.
            let seen = board.lastBlocks()
            for (chain, header) in snapshot.tips {
                let since = now.timeIntervalSince(seen[chain] ?? header.time)
                metrics.chainTip(chain, height: header.height, secondsSinceBlock: max(0, since))
            }
            metrics.followedAddresses(JobPlan.accountsWatch, snapshot.accounts)
        }
        for watch in config.watches where watch.kind == .address {
            metrics.followedAddresses(watch.id, watch.addresses.count)
        }
        let entries = board.snapshot()
        let highest = entries.values.compactMap(\.tipHeight).max()
        for (provider, entry) in entries {
            let lag = entry.tipHeight.flatMap { height in highest.map { $0 - height } }
            metrics.providerHealth(provider, up: entry.isHealthy, lagBlocks: lag)
        }
        let usage = store.environment.usage
        metrics.lmdbMap(
            usedBytes: usage.usedBytes,
            sizeBytes: usage.mapSize,
            maxBytes: max(store.environment.options.maxMapSize, usage.mapSize)
        )
        if let process = ProcessStats.read() {
            let delta = lastCPU.withLock { last in
                defer { last = process.cpuSeconds }
                return process.cpuSeconds - last
            }
            metrics.process(process, cpuDelta: delta)
        }
    }
}
