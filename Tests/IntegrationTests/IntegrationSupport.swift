import AsyncHTTPClient
import BlockbookProvider
import Foundation
import Logging
import RawAddrProvider
import Synchronization
import WatcherCore
import WatcherHTTP
import WatcherSimnet

/// The simnet's clock reading a Core ``ManualClock``: the scheduler and the simulated provider share one
/// simulated time, which moves only when the scheduler waits. Minutes of traffic run in a second, exactly.
struct BridgedClock: SimnetClock {
    let clock: ManualClock
    let origin: Double = 1_700_000_000

    func now() -> Double { origin + clock.now.offset.seconds }
}

/// Collects log lines, to check that state changes are logged once.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    func count(prefix: String) -> Int { all.filter { $0.hasPrefix(prefix) }.count }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let extra = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append(([event.message.description] + extra).joined(separator: " "))
        }
    }
}

/// A simnet plus one shared HTTP client, shut down together.
struct Harness {
    let simnet: Simnet
    let client: HTTPClient
    var http: HTTPTransport { HTTPTransport(client: client, userAgent: "watcher-tests") }

    static func with<T: Sendable>(
        _ configuration: SimnetConfiguration,
        _ body: (Harness) async throws -> T
    ) async throws -> T {
        let simnet = try await Simnet.start(configuration)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let harness = Harness(simnet: simnet, client: client)
        do {
            let result = try await body(harness)
            try await client.shutdown()
            await simnet.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            await simnet.shutdown()
            throw error
        }
    }

    func blockbook(_ id: String = "bb", timeout: Duration = .seconds(10)) -> BlockbookProvider {
        BlockbookProvider(id: id, baseURL: simnet.baseURL, http: http, options: HTTPOptions(timeout: timeout))
    }

    func rawaddr(_ id: String = "bci", timeout: Duration = .seconds(10)) -> RawAddrProvider {
        RawAddrProvider(id: id, baseURL: simnet.baseURL, http: http, options: HTTPOptions(timeout: timeout))
    }
}

/// Waits for `condition` with a deadline (no sleeps as synchronisation: the condition is polled).
func eventually(
    timeout: Duration = .seconds(60),
    _ what: String,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(50))
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}
