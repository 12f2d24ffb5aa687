import Testing

@testable import WatcherRules

/// ``RoundSchedule``: rounds `every` apart, never a burst after a late one, and a failed round retried after 2 s,
/// doubling, never later than `every`.
struct RoundScheduleTests {
    @Test func roundsAreEveryApartAndALateOneIsFollowedOnceAtOnce() {
        var schedule = RoundSchedule(every: .seconds(60), start: .seconds(10))
        #expect(schedule.next == .seconds(10))
        schedule.finished(failed: false, now: .seconds(11))
        #expect(schedule.next == .seconds(70))
        // A round that ran past two intervals: the next starts at once, and the one after `every` later.
        schedule.finished(failed: false, now: .seconds(200))
        #expect(schedule.next == .seconds(200))
        schedule.finished(failed: false, now: .seconds(201))
        #expect(schedule.next == .seconds(260))
    }

    @Test func aFailedRoundIsRetriedSoonerDoublingUpToTheInterval() {
        var schedule = RoundSchedule(every: .seconds(3600), start: .zero)
        var delays: [Duration] = []
        var now = Duration.seconds(1)
        for _ in 0..<13 {
            schedule.finished(failed: true, now: now)
            delays.append(schedule.next - now)
            now = schedule.next + .milliseconds(100)
        }
        let expected: [Duration] = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048].map { .seconds($0) }
        #expect(Array(delays.prefix(11)) == expected)
        // Capped by the schedule: never later than `every` after the round's start.
        #expect(delays.suffix(2).allSatisfy { $0 <= .seconds(3600) })
        #expect(schedule.failures == 13)
        // A success goes back to the plain interval.
        schedule.finished(failed: false, now: now)
        #expect(schedule.failures == 0)
        #expect(schedule.next > now + .seconds(3000))
    }

    @Test func aShortIntervalIsNotChangedByAFailure() {
        var schedule = RoundSchedule(every: .seconds(1), start: .zero)
        schedule.finished(failed: true, now: .milliseconds(300))
        #expect(schedule.next == .seconds(1))
    }

    @Test func aWakeUpStartsTheScheduleAnew() {
        var schedule = RoundSchedule(every: .seconds(60), start: .zero)
        schedule.finished(failed: false, now: .seconds(1))
        schedule.woken(now: .seconds(30))
        #expect(schedule.next == .seconds(30))
        schedule.finished(failed: false, now: .seconds(31))
        #expect(schedule.next == .seconds(90))
    }
}
