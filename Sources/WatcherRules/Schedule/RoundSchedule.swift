/// When a job's next round starts, as a pure rule on the engine's elapsed time: `every` after the last start (a late
/// round is followed at once by the next due one, never by a burst). After a failed round it comes sooner: 2 s, then
/// twice as long after each further failure, never later than `every`, so a job with a long interval (an hourly
/// `address` watch left to a push) is not blind for an hour after one transient failure. Each retry still goes
/// through the scheduler, whose rate limits and breaker decide when a request really leaves.
package struct RoundSchedule: Sendable, Equatable {
    /// The first retry's delay after a failed round.
    package static let firstRetry: Duration = .seconds(2)

    /// The job's interval.
    package let every: Duration
    /// When the next round starts.
    package private(set) var next: Duration
    /// Failed rounds in a row.
    package private(set) var failures = 0

    /// A schedule whose first round starts at `start`.
    package init(every: Duration, start: Duration) {
        self.every = every
        self.next = start
    }

    /// A round ended at `now`, `failed` or not.
    package mutating func finished(failed: Bool, now: Duration) {
        next += every
        if next < now { next = now }
        guard failed else {
            failures = 0
            return
        }
        failures += 1
        let retry = Self.firstRetry * (1 << min(failures - 1, 20))
        next = min(next, now + min(retry, every))
    }

    /// A wake-up (a new tip) started a round at `now`: the schedule starts anew from it.
    package mutating func woken(now: Duration) { next = now }
}
