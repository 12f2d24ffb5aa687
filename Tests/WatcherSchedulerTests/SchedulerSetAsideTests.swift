import Synchronization
import Testing
import WatcherCore
import WatcherScheduler
import WatcherTesting

/// `setAside(_:reason:)`, the engine's trust rules' lever: a set-aside provider is skipped while the list has
/// another, still asked when it is the only one (so it can be seen to agree again), and each change is reported
/// once, apart from the health probe's out-of-sync state.
struct SchedulerSetAsideTests {
    @Test func aSetAsideProviderIsSkippedAndEachChangeReportedOnce() async throws {
        let transitions = Locked<[ProviderTransition]>([])
        let clock = ManualClock()
        let limit = RateLimit(requests: 100, per: .seconds(1), burst: 100)
        let scheduler = Scheduler(
            limits: ["a": limit, "b": limit],
            clock: clock,
            logger: LogLines().logger,
            onTransition: { transition in transitions.withLock { $0.append(transition) } }
        )
        try await withThrowingTaskGroup(of: Void.self) { group throws in
            group.addTask { try await scheduler.run() }
            let ask: @Sendable ([String]) async throws -> String = { ids in
                try await scheduler.perform(on: ids, priority: .refresh, budget: .seconds(10)) { $0 }
            }
            #expect(try await ask(["a", "b"]) == "a")
            await scheduler.setAside("a", reason: "lagging 3 blocks behind")
            #expect(await scheduler.isSetAside("a"))
            #expect(try await ask(["a", "b"]) == "b")
            #expect(try await ask(["a"]) == "a")
            // Out of sync by its own probe and back: the set-aside stands.
            await scheduler.setHealth("a", healthy: false, reason: "syncing")
            await scheduler.setHealth("a", healthy: true)
            #expect(try await ask(["a", "b"]) == "b")
            await scheduler.setAside("a", reason: nil)
            await scheduler.setAside("a", reason: nil)
            #expect(!(await scheduler.isSetAside("a")))
            #expect(try await ask(["a", "b"]) == "a")
            group.cancelAll()
        }
        let reported = transitions.withLock { $0 }.map { "\($0.provider) \($0.kind.rawValue): \($0.reason)" }
        #expect(
            reported == [
                "a degraded: lagging 3 blocks behind", "a degraded: syncing", "a recovered: in sync again",
                "a recovered: agrees with the other providers again",
            ]
        )
    }
}
