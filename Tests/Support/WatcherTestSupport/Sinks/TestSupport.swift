import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import ServiceLifecycle
import Testing
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherHTTP
import WatcherJSON
import WatcherSinks
import WatcherStorage
import WatcherTesting

package let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// Envelopes and log appends.
package enum Events {
    package static func id(_ n: Int) -> String { "evt_\(n)" }

    /// A small CloudEvents envelope.
    package static func body(_ n: Int, type: String = "block.new") -> [UInt8] {
        Array(
            #"{"data":{"height":\#(n)},"id":"\#(id(n))","source":"watcher/test","specversion":"1.0","time":"2026-01-01T00:00:00Z","type":"\#(type)"}"#
                .utf8
        )
    }

    /// Appends events `range` in one commit, all of `type` unless `types` gives one per event.
    @discardableResult
    package static func append(
        _ store: Store,
        _ range: ClosedRange<Int>,
        type: String = "block.new",
        types: [String]? = nil,
        signal: LogSignal? = nil
    ) async throws -> [UInt64] {
        let seqs = try await store.write { txn in
            try range.enumerated().compactMap { index, n in
                let type = types?[index] ?? type
                return try txn.appendEvent(id: id(n), type: type, body: body(n, type: type))
            }
        }
        signal?.notify()
        return seqs
    }
}

/// Runs `body` with a fresh store that is closed and deleted afterwards.
package func withStore<T: Sendable>(_ body: @Sendable (Store, TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory("sinks")
    let store = try directory.openStore()
    do {
        let result = try await body(store, directory)
        await store.close()
        directory.remove()
        return result
    } catch {
        await store.close()
        directory.remove()
        throw error
    }
}

/// Runs `body` with the daemon's HTTP transport, shut down afterwards.
package func withTransport<T: Sendable>(_ body: @Sendable (HTTPTransport) async throws -> T) async throws -> T {
    let service = HTTPClientService(logger: quietLogger)
    let transport = HTTPTransport(client: service.client, userAgent: "watcher-test")
    do {
        let result = try await body(transport)
        await service.shutdown()
        return result
    } catch {
        await service.shutdown()
        throw error
    }
}

/// Test defaults: fast polling, no trimming in the background, no kept history.
package let testOptions = DeliveryService.Options(
    pollInterval: .milliseconds(20),
    trimInterval: .seconds(3600),
    keepDelivered: 0
)

/// Webhook options for tests.
package func hookOptions(
    _ url: String,
    timeout: Duration = .seconds(5),
    maxAttempts: Int = 10,
    maxAge: Duration = .seconds(86_400),
    initialBackoff: Duration = .seconds(1),
    maxBackoff: Duration = .seconds(8)
) -> WebhookSinkPlugin.Options {
    WebhookSinkPlugin.Options(
        url: url,
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        headerFields: [HTTPField.Name("X-Test")!: "yes"],
        timeout: timeout,
        maxAttempts: maxAttempts,
        maxAge: maxAge,
        initialBackoff: initialBackoff,
        maxBackoff: maxBackoff
    )
}

/// Reads one sink's cursor.
package func cursor(_ store: Store, _ sink: String) throws -> UInt64 {
    try store.read { try $0.cursor(sink: sink) }
}

/// The lines of a JSON Lines file (missing file: none).
package func lines(_ path: String) -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// The envelope ids of a JSON Lines file.
package func fileIDs(_ path: String) -> [String] {
    lines(path).map { (try? JSONValue.parse($0))?["id"]?.stringValue ?? "<bad line: \($0)>" }
}
