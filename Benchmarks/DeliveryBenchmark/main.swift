// The delivery benchmark: events/s from durable log appends through delivery to the file sink and to one webhook
// receiver on loopback, and the latency from append to the webhook request at a steady rate.
//
//     swift run -c release watcher-delivery-bench [fileEvents] [webhookEvents] [latencySeconds] [rate]
//
// Defaults: 100000 20000 20 100. Appends are durable LMDB commits of 100 events (one per event in the latency run).

import BenchmarkSupport
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherHTTP
import WatcherSinks
import WatcherStorage

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let fileEvents = arguments.count > 0 ? arguments[0] : 100_000
let webhookEvents = arguments.count > 1 ? arguments[1] : 20_000
let latencySeconds = arguments.count > 2 ? arguments[2] : 20
let rate = arguments.count > 3 ? arguments[3] : 100
let perCommit = 100
let quiet = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

/// Appends `range` in durable commits of `perCommit`, waking the workers after each.
func append(_ store: Store, _ signal: LogSignal, _ range: ClosedRange<Int>) async throws {
    var start = range.lowerBound
    while start <= range.upperBound {
        let end = min(start + perCommit - 1, range.upperBound)
        let batch = start...end
        _ = try await store.write { txn in
            for n in batch {
                _ = try txn.appendEvent(id: "evt_\(n)", type: BenchmarkEvents.type, body: BenchmarkEvents.envelope(n))
            }
        }
        signal.notify()
        start = end + 1
    }
}

/// Runs `service` while `body` runs, then shuts it down gracefully.
func whileRunning<T: Sendable>(_ service: some Service, _ body: @Sendable () async throws -> T) async throws -> T {
    let group = ServiceGroup(configuration: .init(services: [service], logger: quiet))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        let result = try await body()
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
        return result
    }
}

/// Waits until the sink's cursor reaches `seq`.
func waitForCursor(_ store: Store, _ sink: String, _ seq: UInt64) async throws {
    while try store.read({ try $0.cursor(sink: sink) }) < seq { try await Task.sleep(for: .microseconds(200)) }
}

/// Runs `body` with a fresh store and its append signal while a delivery service feeds the store's log to `sink`;
/// the store is removed afterwards.
func withDelivery<T: Sendable>(
    to sink: any Sink,
    _ body: @Sendable (Store, LogSignal) async throws -> T
) async throws -> T {
    let directory = try BenchmarkEvents.temporaryDirectory("watcher-delivery-bench")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try Store(path: directory + "/data")
    let signal = LogSignal()
    let service = DeliveryService(
        store: store,
        signal: signal,
        routes: [.init(sink: sink)],
        retention: nil,
        logger: quiet,
        time: .system
    )
    let result = try await whileRunning(service) { try await body(store, signal) }
    await store.close()
    return result
}

/// Appends and delivers `count` events through `sink`; returns events per second from the first append to the
/// cursor reaching the last one, and the append rate alone (the log side's ceiling in this run).
func throughput(_ count: Int, sink: any Sink) async throws -> (delivered: Double, appended: Double) {
    let (elapsed, appending) = try await withDelivery(to: sink) { store, signal in
        let start = ContinuousClock.now
        try await append(store, signal, 1...count)
        let appended = ContinuousClock.now
        try await waitForCursor(store, sink.id, UInt64(count))
        return (ContinuousClock.now - start, appended - start)
    }
    return (Double(count) / seconds(elapsed), Double(count) / seconds(appending))
}

/// Prints one throughput line of the report.
func report(_ label: String, _ rate: (delivered: Double, appended: Double), events: Int) {
    let figures = String(
        format: "%8.0f events/s  (%d events; appends alone %.0f/s)",
        rate.delivered,
        events,
        rate.appended
    )
    print("\(label) \(figures)")
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The webhook sink `id` posting to `url`, signed with a fixed secret.
func webhookSink(id: String, url: String, http: HTTPTransport) -> WebhookSink {
    let options = WebhookSinkPlugin.Options(url: url, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
    return WebhookSink(id: id, options: options, http: http, logger: quiet, time: .system)
}

/// Counts webhook requests and stamps the arrival of each `webhook-id`.
final class Receiver: Sendable {
    let arrivals = Mutex<[String: ContinuousClock.Instant]>([:])
    let port = Mutex<Int?>(nil)
}

struct ReceiverResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let receiver: Receiver

    func respond(to request: Request, context: Context) async throws -> Response {
        let now = ContinuousClock.now
        var request = request
        _ = try await request.collectBody(upTo: 1 << 20)
        if let id = request.headers.first(where: { $0.name.canonicalName == "webhook-id" })?.value {
            receiver.arrivals.withLock { $0[id] = now }
        }
        return Response(status: .noContent)
    }
}

func withReceiver<T: Sendable>(_ body: @Sendable (Receiver, String) async throws -> T) async throws -> T {
    let receiver = Receiver()
    let app = Application(
        responder: ReceiverResponder(receiver: receiver),
        configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in receiver.port.withLock { $0 = channel.localAddress?.port } },
        logger: quiet
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        while receiver.port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        let url = "http://127.0.0.1:\(receiver.port.withLock { $0 } ?? 0)/hook"
        let result = try await body(receiver, url)
        group.cancelAll()
        return result
    }
}

/// Appends one event per commit at `rate` per second for `seconds`; returns append-to-arrival latencies in ms.
func latencies(seconds length: Int, rate: Int, http: HTTPTransport) async throws -> [Double] {
    try await withReceiver { receiver, url in
        let count = length * rate
        let appended = try await withDelivery(to: webhookSink(id: "hook", url: url, http: http)) { store, signal in
            var appended: [ContinuousClock.Instant] = []
            let start = ContinuousClock.now
            for n in 1...count {
                try await ContinuousClock().sleep(until: start + .seconds(Double(n - 1) / Double(rate)))
                appended.append(.now)
                _ = try await store.write {
                    try $0.appendEvent(id: "evt_\(n)", type: BenchmarkEvents.type, body: BenchmarkEvents.envelope(n))
                }
                signal.notify()
            }
            try await waitForCursor(store, "hook", UInt64(count))
            return appended
        }
        let arrivals = receiver.arrivals.withLock { $0 }
        return appended.enumerated().compactMap { index, sent in
            arrivals["evt_\(index + 1)"].map { seconds(sent.duration(to: $0)) * 1000 }
        }
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

let httpService = HTTPClientService(logger: quiet)
let http = HTTPTransport(client: httpService.client, userAgent: "watcher-delivery-bench")
do {
    let fileDirectory = try BenchmarkEvents.temporaryDirectory("watcher-delivery-bench")
    let fileSink = try FileSink(id: "file", options: .init(path: fileDirectory + "/events.jsonl"), time: .system)
    let fileRate = try await throughput(fileEvents, sink: fileSink)
    try? FileManager.default.removeItem(atPath: fileDirectory)
    report("file sink (fsync always): ", fileRate, events: fileEvents)

    let webhookRate = try await withReceiver { _, url in
        try await throughput(webhookEvents, sink: webhookSink(id: "hook", url: url, http: http))
    }
    report("webhook (one receiver):   ", webhookRate, events: webhookEvents)

    // The transport's own ceiling: the same signed POSTs in a plain loop, no log, no worker, no commits.
    let rawRate = try await withReceiver { _, url in
        let sink = webhookSink(id: "raw", url: url, http: http)
        let events = (1...webhookEvents).map {
            SinkEvent(seq: UInt64($0), id: "evt_\($0)", type: BenchmarkEvents.type, body: BenchmarkEvents.envelope($0))
        }
        let start = ContinuousClock.now
        for event in events { _ = await sink.deliver([event]) }
        return Double(webhookEvents) / seconds(ContinuousClock.now - start)
    }
    print(String(format: "  (same POSTs in a bare loop: %.0f/s)", rawRate))

    let samples = try await latencies(seconds: latencySeconds, rate: rate, http: http)
    print(
        String(
            format: "latency at %d/s over %d s:  p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%d events)",
            rate,
            latencySeconds,
            percentile(samples, 0.50),
            percentile(samples, 0.99),
            samples.max() ?? .nan,
            samples.count
        )
    )
} catch {
    print("benchmark failed: \(error)")
}
await httpService.shutdown()
