import Foundation
import Synchronization
import WatcherCore

#if canImport(Glibc)
    import Glibc
#endif

/// A clock that moves only when told to: the injected clock of state-machine tests and simulations.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        /// Offset from the clock's origin.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))

    /// Creates a clock at offset zero.
    public init() {}

    public var now: Instant { current.withLock { $0 } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves time forward.
    public func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }

    /// Sleeping on a manual clock returns at once after moving time to the deadline: simulations run as fast as
    /// they can while every timestamp stays consistent.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        current.withLock { if deadline > $0 { $0 = deadline } }
    }

    /// A ``TimeSource`` on this clock whose wall clock reads `epoch` plus the clock's offset, so that timestamps,
    /// ages and waits all follow this clock and no other.
    public func timeSource(epoch: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> TimeSource {
        TimeSource(clock: self, wallClock: { epoch.addingTimeInterval(self.now.offset.seconds) })
    }
}
