import Foundation

/// The one way a component tells time: a monotonic clock for schedules, waits and measured durations, and the
/// wall clock for timestamps, injected together so that they agree. The daemon runs on ``system``; a test
/// builds one from a manual clock (`ManualClock.timeSource(epoch:)` in `WatcherTesting`), and then every wait,
/// duration and timestamp of the component follows that clock and no other.
public struct TimeSource: Sendable {
    private let elapsedSinceOrigin: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    private let wall: @Sendable () -> Date

    /// A source over `clock`, with `wallClock` for timestamps.
    public init<C: Clock>(clock: C, wallClock: @escaping @Sendable () -> Date) where C.Duration == Duration {
        let origin = clock.now
        elapsedSinceOrigin = { origin.duration(to: clock.now) }
        sleeper = { try await clock.sleep(for: $0) }
        wall = wallClock
    }

    /// The process's clocks: `ContinuousClock` and the system's wall clock.
    public static var system: TimeSource { TimeSource(clock: ContinuousClock(), wallClock: Date.init) }

    /// Monotonic time since the source was made: compare and subtract these, never wall-clock dates.
    public var elapsed: Duration { elapsedSinceOrigin() }

    /// The wall-clock time, for timestamps (event times, ages, `Retry-After` dates, signatures).
    public func now() -> Date { wall() }

    /// Sleeps on the monotonic clock (a manual clock in tests decides when this returns).
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await sleeper(duration)
    }

    /// Sleeps until the monotonic ``elapsed`` reaches `deadline`.
    public func sleep(until deadline: Duration) async throws {
        try await sleep(for: deadline - elapsed)
    }

    /// How long `body` took on the monotonic clock.
    public func measure<T>(_ body: () async throws -> T) async rethrows -> (result: T, duration: Duration) {
        let start = elapsed
        let result = try await body()
        return (result, elapsed - start)
    }
}
