import Foundation
import Logging
import ServiceLifecycle
import WatcherCore
import WatcherEventLog
import WatcherObservability
import WatcherStorage

/// Feeds one sink from its persisted cursor: waits for ``LogSignal`` wake-ups (and polls), reads a batch in a short
/// read transaction, hands it to the sink, and commits the cursor move and any dead letters in one write. The
/// decisions are ``DeliveryStateMachine``'s.
///
/// At graceful shutdown it finishes the delivery in flight, commits it, and closes the sink.
public struct DeliveryWorker: Service {
    /// The sink fed.
    public let sink: any Sink
    /// The state it updates: cursor, head, last error, disable.
    public let status: DeliveryStatus
    /// Where its counters and durations go.
    let metrics: WatcherMetrics
    let managed: (any ManagedSink)?
    /// The log it reads, from its cursor, woken by each commit.
    let log: EventLog
    /// Where the log, the cursor and the dead letters live.
    var store: Store { log.store }
    let filter: EventFilter
    let policy: DeliveryPolicy
    let logger: Logger
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    let pollInterval: Duration

    /// Creates a worker.
    /// - Parameters:
    ///   - sink: the sink; a ``ManagedSink`` brings its own policy and may report its destination gone.
    ///   - filter: the event types it receives.
    ///   - store: the store holding the log and the cursors.
    ///   - signal: wakes the worker after appends.
    ///   - status: where its state goes (a fresh one when `nil`).
    ///   - metrics: where its counters and durations go.
    ///   - policy: overrides the sink's policy.
    ///   - logger: for failures, dead letters and disables.
    ///   - clock: the clock retries wait on (a `ManualClock` makes backoff instant in tests).
    ///   - now: wall-clock time, for ages and dead letters; keep it consistent with `clock`.
    ///   - pollInterval: how often to look at the log without a wake-up.
    public init(
        sink: any Sink,
        filter: EventFilter = EventFilter(),
        store: Store,
        signal: LogSignal,
        status: DeliveryStatus? = nil,
        metrics: WatcherMetrics = .none,
        policy: DeliveryPolicy? = nil,
        logger: Logger,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = Date.init,
        pollInterval: Duration = .seconds(1)
    ) {
        self.sink = sink
        self.managed = sink as? any ManagedSink
        self.filter = filter
        self.log = EventLog(store: store, signal: signal)
        self.status = status ?? DeliveryStatus(sinks: [sink.id])
        self.metrics = metrics
        self.policy = policy ?? managed?.deliveryPolicy ?? .local
        var logger = logger
        logger[metadataKey: "sink"] = "\(sink.id)"
        self.logger = logger
        self.clock = clock
        self.now = now
        self.pollInterval = pollInterval
    }

    public func run() async throws {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let signals = log.subscribe()
        let stopping = Flag()
        let pollInterval = self.pollInterval
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in signals { wake.yield() }
                }
                // The safety poll is a wake-up, not a reading of time: no decision depends on when it fires
                // (retries and ages use the injected clock and `now`), so it sleeps on the system's clock and a
                // manual clock in tests is never advanced by it.
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: pollInterval)
                        wake.yield()
                    }
                }
                await loop(wakes: wakes, stopping: stopping)
                group.cancelAll()
            }
        } onGracefulShutdown: {
            stopping.set()
            wake.yield()
        }
        await sink.close()
        logger.debug("delivery worker stopped")
    }

    private func loop(wakes: AsyncStream<Void>, stopping: Flag) async {
        var wakeups = wakes.makeAsyncIterator()
        guard var machine = await start(stopping: stopping) else { return }
        var expiredThrough: UInt64 = 0
        // At most one commit is in flight: the next batch goes out while the previous one's commit fsyncs.
        // Commits land in order, and the worker never idles or stops with one pending.
        await withTaskGroup(of: CommitResult.self) { commits in
            var inFlight = false
            running: while !stopping.isSet, !Task.isCancelled {
                if machine.disabled != nil {
                    _ = await settle(&commits, &inFlight, &machine)
                    await managed?.idle()
                    guard await wakeups.next() != nil else { break running }
                    checkEnabled(&machine)
                    continue
                }
                let batch: Batch
                do {
                    batch = try read(after: machine.cursor)
                } catch {
                    logger.error("cannot read the event log", metadata: ["error": "\(error)"])
                    await pause()
                    continue
                }
                noteExpired(batch, cursor: machine.cursor, through: &expiredThrough)
                status.update(sink.id) { $0.head = max($0.head, batch.head) }
                switch machine.plan(batch.events, firstAppendedAt: batch.firstAppendedAt, now: now()) {
                case .idle:
                    guard await settle(&commits, &inFlight, &machine) else { continue }
                    await managed?.idle()
                    guard await wakeups.next() != nil else { break running }
                case .wait(let delay):
                    guard await settle(&commits, &inFlight, &machine) else { continue }
                    let clock = self.clock
                    try? await cancelWhenGracefulShutdown { try await clock.sleep(for: delay) }
                case .deliver(let window):
                    if machine.pending != nil { metrics.sinkRetry(sink.id) }
                    let report = window.events.isEmpty ? DeliveryReport(outcomes: []) : await deliver(window.events)
                    let commit = machine.record(report, for: window, now: now())
                    guard await settle(&commits, &inFlight, &machine) else { continue }
                    if commit.needsWrite {
                        commits.addTask { await write(commit) }
                        inFlight = true
                    } else {
                        self.report(commit, machine: machine)
                    }
                }
            }
            _ = await settle(&commits, &inFlight, &machine)
        }
    }

    private func deliver(_ events: [SinkEvent]) async -> DeliveryReport {
        var report = DeliveryReport(outcomes: [])
        let elapsed = await clock.measure {
            if let managed {
                report = await managed.deliverReporting(events)
            } else {
                report = DeliveryReport(outcomes: await sink.deliver(events))
            }
        }
        metrics.sinkDeliveryDuration(sink.id, elapsed)
        return report
    }

    /// Waits for the commit in flight, if any. Returns `false` when it failed: the machine then restarts from the
    /// stored cursor (the events after it are delivered again), and the caller must drop what it planned since.
    private func settle(
        _ commits: inout TaskGroup<CommitResult>,
        _ inFlight: inout Bool,
        _ machine: inout DeliveryStateMachine
    ) async -> Bool {
        guard inFlight else { return true }
        inFlight = false
        switch await commits.next() {
        case .committed(let commit)?:
            report(commit, machine: machine)
            return true
        case .failed(let error)?:
            logger.error("cannot commit the sink cursor; redelivering", metadata: ["error": "\(error)"])
            let id = sink.id
            machine.reset(cursor: (try? store.read { try $0.cursor(sink: id) }) ?? 0)
            await pause()
            return false
        case nil:
            return true
        }
    }

    /// Waits a poll interval on the injected clock after an error (cut short by graceful shutdown).
    func pause() async {
        let (interval, clock) = (pollInterval, self.clock)
        try? await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
    }
}
