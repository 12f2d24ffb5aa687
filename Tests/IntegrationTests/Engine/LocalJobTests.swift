import Foundation
import Logging
import Synchronization
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherPlugins
import WatcherScheduler
import WatcherStorage
import WatcherTesting

/// The contract of ``LocalJob``, the engine's plug point for jobs that ask no provider (payment requests): the
/// engine runs its rounds on its schedule, goes on after a failed round, and leaves it to the engine that runs the
/// jobs that are not push jobs. A real store; the engine on the system clock (the rounds are counted, not timed).
struct LocalJobTests {
    /// Counts its rounds; the first one fails.
    final class CountingJob: LocalJob {
        let name = "counting"
        let every: Duration = .milliseconds(10)
        private let count = Mutex(0)

        var rounds: Int { count.withLock { $0 } }

        func round() async throws {
            let round = count.withLock { count in
                count += 1
                return count
            }
            if round == 1 { throw ProviderError.unavailable(provider: "none", status: 503, detail: "a failed round") }
        }
    }

    static func withEngine(
        selection: Engine.JobSelection,
        job: CountingJob,
        _ body: @Sendable () async throws -> Void
    ) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-local-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let json = """
            {"storage": {"path": "\(data)"}, "providers": [], "watches": [], "sinks": []}
            """
        let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
        let store = try Store(path: data)
        let time = TimeSource.system
        let engine = Engine(
            config: config,
            context: EngineContext(
                store: store,
                scheduler: Scheduler(limits: [:], clock: TimeSourceClock(time)),
                chainProviders: [:],
                priceProviders: [:],
                signal: LogSignal(),
                logger: Logger(label: "local-job-test", factory: { _ in SwiftLogNoOpLogHandler() }),
                time: time
            ),
            transitions: AsyncStream { $0.finish() },
            selection: selection,
            localJobs: [job]
        )
        let running = Task { try await engine.run() }
        do {
            try await body()
        } catch {
            running.cancel()
            _ = try? await running.value
            await store.close()
            throw error
        }
        running.cancel()
        _ = try? await running.value
        await store.close()
    }

    @Test func aHandedJobRunsOnItsScheduleAndGoesOnAfterAFailedRound() async throws {
        let job = CountingJob()
        try await Self.withEngine(selection: .allButPush, job: job) {
            // The first round failed; the next ones must still run.
            try await eventually(timeout: .seconds(30), "three rounds") { job.rounds >= 3 }
        }
    }

    @Test func theEngineOfThePushJobsLeavesItToTheOther() async throws {
        let job = CountingJob()
        let other = CountingJob()
        try await Self.withEngine(selection: .push, job: job) {
            try await Self.withEngine(selection: .allButPush, job: other) {
                // The engine started after it has run rounds of its job meanwhile: this one had the time to, too.
                try await eventually(timeout: .seconds(30), "three rounds of the other engine") { other.rounds >= 3 }
                #expect(job.rounds == 0)
            }
        }
    }
}
