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
    /// Its clocks: retries wait on it, deliveries are timed on it, ages and dead letters are stamped with it.
    let time: TimeSource
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
    ///   - time: what retries wait on and ages are read from (a `ManualClock`'s source makes backoff instant in
    ///     tests, with timestamps that follow it).
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
        time: TimeSource,
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
        self.time = time
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
                // (retries and ages use the injected `time`), so it sleeps on the system's clock and a manual
                // clock in tests is never advanced by it.
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
                switch machine.plan(batch.events, firstAppendedAt: batch.firstAppendedAt, now: time.now()) {
                case .idle:
                    guard await settle(&commits, &inFlight, &machine) else { continue }
                    await managed?.idle()
                    guard await wakeups.next() != nil else { break running }
                case .wait(let delay):
                    guard await settle(&commits, &inFlight, &machine) else { continue }
                    let time = self.time
                    try? await cancelWhenGracefulShutdown { try await time.sleep(for: delay) }
                case .deliver(let window):
                    if machine.pending != nil { metrics.sinkRetry(sink.id) }
                    let report = window.events.isEmpty ? DeliveryReport(outcomes: []) : await deliver(window.events)
                    let commit = machine.record(report, for: window, now: time.now())
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
        let (report, elapsed) = await time.measure {
            if let managed { return await managed.deliverReporting(events) }
            return DeliveryReport(outcomes: await sink.deliver(events))
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
        let (interval, time) = (pollInterval, self.time)
        try? await cancelWhenGracefulShutdown { try await time.sleep(for: interval) }
    }
}
