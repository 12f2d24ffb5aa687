import Foundation
import Synchronization
import WatcherCore

/// The simnet's source of wall-clock time: rate limiting, request logs and price timestamps read
/// it. Inject a ``ManualSimnetClock`` to freeze or step time in tests.
public protocol SimnetClock: Sendable {
    /// Seconds since the Unix epoch.
    func now() -> Double
}

/// The real clock.
public struct SystemSimnetClock: SimnetClock {
    /// Creates the real clock.
    public init() {}

    /// The system time in unix seconds.
    public func now() -> Double {
        Date().timeIntervalSince1970
    }
}

/// A clock that only moves when told to.
public final class ManualSimnetClock: SimnetClock {
    private let time: Mutex<Double>

    /// Creates a clock frozen at `start` (unix seconds).
    public init(start: Double = 1_700_000_000) {
        time = Mutex(start)
    }

    /// The frozen time in unix seconds.
    public func now() -> Double {
        time.withLock { $0 }
    }

    /// Moves the clock forward by `duration`.
    public func advance(by duration: Duration) {
        time.withLock { $0 += duration.seconds }
    }

    /// Sets the clock to `unixSeconds`.
    public func set(_ unixSeconds: Double) {
        time.withLock { $0 = unixSeconds }
    }
}
