import Logging
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The recent blocks shown by `watcher blocks`, the Blocks tab and `/api/blocks`, filled in below the first tip.
///
/// A fresh data directory learns the tip only: blocks below it are not announced (that is `maxBackfill`'s rule for
/// missed blocks, and they were not missed). Their headers are still what a user expects to see, so they are
/// fetched by a loop of their own beside the chain job (every ``displayEvery``), at backfill priority and only from
/// budget nobody is using (the first header provider idle with its bucket three quarters full: on a public
/// Blockbook's 20 a minute they come in between the real work), each checked against the hash the header above
/// names, and stored without an event. The tip job never waits for them.
struct DisplayJob: Sendable {
    let chain: String
    /// The chain job's providers that serve headers.
    let headerProviders: [String]
    let context: EngineContext
    /// Where the recent blocks shown stop (the provider's first block), and the tip last found complete.
    let displayFloor = Locked(DisplayFloor())

    /// Blocks shown from the first minute (at most `storage.keepHeaders`).
    static let displayedBlocks = 20
    /// Most headers fetched for display in one round of the display loop.
    static let displayFetchesPerRound = 5
    /// How often the display loop looks for spare budget (a store read of the tip when nothing is missing).
    static let displayEvery: Duration = .seconds(1)

    func round() async throws {
        guard !headerProviders.isEmpty else { return }
        let chain = self.chain
        let count = min(Self.displayedBlocks, context.keepHeaders)
        let tip = try context.store.read { try $0.tip(chain: chain) }
        guard let tip, tip != displayFloor.withLock({ $0.complete }) else { return }
        var memory = try context.store.read { try ChainMemory.load($0, chain: chain) }
        let floor = displayFloor.withLock { $0.height } ?? Int.min
        if memory.nextMissingHeader(within: count).map({ $0 <= floor }) ?? true {
            displayFloor.withLock { $0.complete = tip }
            return
        }
        var fetched: [BlockHeader] = []
        var asked: Int?
        do {
            if let batch = try await batch(&memory, count: count) {
                fetched = batch
            } else {
                while fetched.count < Self.displayFetchesPerRound, let height = memory.nextMissingHeader(within: count),
                    height > floor,
                    let provider = headerProviders.first, await context.scheduler.hasSpareBudget(provider)
                {
                    asked = height
                    let header = try await context.ask(headerProviders, .backfill) {
                        try await $0.block(.height(height))
                    }
                    // Another chain than the one remembered (a reorg under way): the next tip round settles it first.
                    guard header.height == height, memory.recordDown([header]).count == 1 else { break }
                    fetched.append(header)
                }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch ProviderError.notFound {
            // Below the provider's first block (a pruned node, a simulated chain): never asked again.
            if let asked { displayFloor.withLock { $0.height = asked } }
        } catch {
            context.logger.debug(
                "recent blocks for display not fetched this round",
                metadata: ["chain": "\(chain)", "error": "\(error)"]
            )
        }
        guard !fetched.isEmpty else { return }
        let headers = fetched
        _ = try await context.commit { txn in
            // Only onto the chain stored now: a round that committed a reorg meanwhile wins.
            var current = try ChainMemory.load(txn, chain: chain)
            for header in headers where current.headers[header.height] == nil {
                guard current.hash(at: header.height) == header.hash else { break }
                try txn.putHeader(chain: chain, header, keep: .max)
                if let parent = header.previousHash, current.hash(at: header.height - 1) == nil {
                    try txn.putBlockHash(chain: chain, height: header.height - 1, hash: parent)
                }
                current.record(header)
            }
            return []
        }
    }

    /// Every missing header in one call where the first header provider reads them in a batch (a node, an Electrum
    /// server; ``ChainCapabilities/headerBatch``) and has spare budget: two requests at most instead of one a block,
    /// so a fresh data directory shows its 20 blocks within a second or two even on a budget of 20 a minute. Each
    /// header is checked from the top down against the hash the one above names, as one at a time. `nil` where the
    /// provider has no batch or could not serve one (the loop then reads one header at a time, which finds the
    /// provider's first block); empty where there is nothing to ask now. A passing failure (429, 5xx, a timeout)
    /// leaves the batch for the next round.
    private func batch(_ memory: inout ChainMemory, count: Int) async throws -> [BlockHeader]? {
        guard !displayFloor.withLock({ $0.batchFailed }), let first = headerProviders.first,
            let provider = context.chainProviders[first], provider.capabilities.contains(.headerBatch)
        else { return nil }
        guard let tip = memory.tip, let top = memory.nextMissingHeader(within: count),
            await context.scheduler.hasSpareBudget(first)
        else { return [] }
        let bottom = max(tip.height - count + 1, displayFloor.withLock { $0.height }.map { $0 + 1 } ?? 0)
        guard bottom <= top else { return [] }
        let headers: [BlockHeader]
        do {
            headers = try await context.ask([first], .backfill, cost: provider.requestsPerHeaders) {
                try await $0.headers(from: bottom, count: top - bottom + 1)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as ProviderError {
            switch error {
            // Passing: the next round asks the batch again.
            case .rateLimited, .unavailable, .timeout, .transport: break
            // The provider cannot serve this batch (a height below its first block, an answer it cannot give).
            default: displayFloor.withLock { $0.batchFailed = true }
            }
            throw error
        }
        guard headers.last?.height == top else {
            // The provider's chain does not reach the missing top (its first block is above `bottom`, or it is
            // behind): one at a time from now on.
            displayFloor.withLock { $0.batchFailed = true }
            return nil
        }
        // Another chain than the one remembered (a reorg under way): the next tip round settles it first.
        return memory.recordDown(headers)
    }
}

/// What the display loop remembers between rounds: the height at and below which the provider has no block (it
/// answered "not found"), so it stops there instead of asking again every round; whether the provider could not
/// serve a batch of headers (a refused or malformed answer, or a chain that does not reach the missing top: one
/// header at a time from then on); and the stored tip under which nothing was missing at the last look (nothing to
/// read until the tip moves).
struct DisplayFloor: Sendable {
    var height: Int?
    var batchFailed = false
    var complete: BlockRef?
}
