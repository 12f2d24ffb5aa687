import Foundation
import Synchronization
import WatcherCore

/// What `/healthz` reports: for each provider, whether its last request reached it and whether it says it is
/// in sync. Updated by the scheduler on every outcome and by the engine's status probes.
public final class ProviderHealthBoard: Sendable {
    /// One provider's state.
    public struct Entry: Sendable, Equatable {
        /// The last request got an answer (any answer but a 5xx, a timeout or a connection failure).
        public var reachable: Bool = true
        /// Why not reachable.
        public var reachabilityReason: String?
        /// The provider reports it is in sync (true until a status probe says otherwise).
        public var inSync: Bool = true
        /// Why not in sync.
        public var syncReason: String?
        /// When it last answered.
        public var lastSuccess: Date?
        /// The tip height it last reported, if it serves a chain.
        public var tipHeight: Int?

        /// Healthy: reachable and in sync.
        public var isHealthy: Bool { reachable && inSync }
    }

    private let state: Mutex<[String: Entry]>
    private let blocks = Mutex<[String: Date]>([:])
    private let time: TimeSource

    /// Creates a board for `providers`, stamping successes and blocks with `time`'s wall clock.
    public init(providers: [String], time: TimeSource) {
        self.time = time
        state = Mutex(Dictionary(providers.map { ($0, Entry()) }) { first, _ in first })
    }

    /// Keeps the entries of `providers` that exist, adds the others as healthy and drops the rest (a reload that
    /// changed the providers).
    public func reset(providers: [String]) {
        state.withLock { state in
            state = Dictionary(providers.map { ($0, state[$0] ?? Entry()) }) { first, _ in first }
        }
    }

    /// Records a request outcome.
    public func record(_ provider: String, reachable: Bool, reason: String? = nil) {
        state.withLock { state in
            var entry = state[provider] ?? Entry()
            entry.reachable = reachable
            entry.reachabilityReason = reachable ? nil : reason
            if reachable { entry.lastSuccess = time.now() }
            state[provider] = entry
        }
    }

    /// Records a sync-state probe.
    public func recordSync(_ provider: String, inSync: Bool, reason: String? = nil) {
        state.withLock { state in
            var entry = state[provider] ?? Entry()
            entry.inSync = inSync
            entry.syncReason = inSync ? nil : reason
            state[provider] = entry
        }
    }

    /// Records the tip height a provider reported.
    public func recordTip(_ provider: String, height: Int) {
        state.withLock { state in state[provider, default: Entry()].tipHeight = height }
    }

    /// Records that `chain` moved to a new tip now.
    public func recordBlock(chain: String) {
        blocks.withLock { $0[chain] = time.now() }
    }

    /// When each chain last moved to a new tip, since start.
    public func lastBlocks() -> [String: Date] { blocks.withLock { $0 } }

    /// A copy of every entry.
    public func snapshot() -> [String: Entry] { state.withLock { $0 } }
}
