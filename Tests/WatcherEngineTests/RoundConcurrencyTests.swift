import Synchronization
import Testing

@testable import WatcherEngine

/// A poll round runs its addresses `width` at a time, and one failing address does not hold up the others.
struct RoundConcurrencyTests {
    final class Gauge: Sendable {
        let state = Mutex((inFlight: 0, peak: 0, done: [Int]()))
    }

    /// Releases its waiters once `count` tasks wait together; a cancelled waiter leaves at once.
    final class Barrier: Sendable {
        let count: Int
        let state = Mutex((arrived: 0, waiters: [CheckedContinuation<Void, Never>]()))
        init(_ count: Int) { self.count = count }

        func arrive() async {
            await withCheckedContinuation { continuation in
                let release = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.arrived += 1
                    state.waiters.append(continuation)
                    guard state.arrived % count == 0 else { return [] }
                    defer { state.waiters = [] }
                    return state.waiters
                }
                for waiter in release { waiter.resume() }
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func runsWidthAtOnceAndNeverMore() async throws {
        let gauge = Gauge()
        // Each task waits for three others of its wave: a round run one at a time would never get past the first,
        // and the time limit would fail the test.
        let barrier = Barrier(4)
        try await AddressDriver.forEach(Array(0..<12), width: 4) { item in
            gauge.state.withLock {
                $0.inFlight += 1
                $0.peak = max($0.peak, $0.inFlight)
            }
            await barrier.arrive()
            gauge.state.withLock {
                $0.inFlight -= 1
                $0.done.append(item)
            }
        }
        let (peak, done) = gauge.state.withLock { ($0.peak, $0.done) }
        #expect(peak == 4)
        #expect(done.sorted() == Array(0..<12))
    }

    struct Failure: Error, Equatable { let item: Int }

    @Test func aFailureDoesNotStopTheRestAndIsThrownAfter() async throws {
        let gauge = Gauge()
        await #expect(throws: Failure(item: 3)) {
            try await AddressDriver.forEach(Array(0..<10), width: 2) { item in
                if item == 3 { throw Failure(item: item) }
                gauge.state.withLock { $0.done.append(item) }
            }
        }
        #expect(gauge.state.withLock { $0.done.sorted() } == [0, 1, 2, 4, 5, 6, 7, 8, 9])
    }

    /// A round cancelled part-way (a reload) throws `CancellationError`, not nothing: the items it never started
    /// were left unanswered by the cancel, not by a provider (the wallet round blamed the provider for them).
    @Test(.timeLimit(.minutes(1)))
    func aCancelledRoundThrowsCancellationForTheItemsLeft() async throws {
        let gauge = Gauge()
        let (started, cancelled) = (Barrier(2), Barrier(2))
        let round = Task {
            try await AddressDriver.forEach(Array(0..<10), width: 1) { item in
                gauge.state.withLock { $0.done.append(item) }
                // The first item waits until the test has cancelled the round; it then ends without an error, as
                // a request already answered does.
                guard item == 0 else { return }
                await started.arrive()
                await cancelled.arrive()
            }
        }
        await started.arrive()
        round.cancel()
        await cancelled.arrive()
        await #expect(throws: CancellationError.self) { try await round.value }
        #expect(gauge.state.withLock { $0.done } == [0])
    }
}
