import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Prometheus
import ServiceLifecycle
import Synchronization
import WatcherCore
import WatcherHTTP
import WatcherObservability
import WatcherStatus
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// A real ``StatusServer`` on a loopback port over a real store in a temporary directory, and an HTTP client: what the
/// status server's tests drive. `POST /api/accounts` answers 400 (`invalid address`) once the guard lets a write
/// through, so a test tells a refusal (401, 403) from a write that got through.
struct StatusHarness {
    let store: Store
    let base: String
    let port: Int
    let client: HTTPClient

    /// Starts a server (`streamClients` stream clients at most, `token` for writes), runs `body`, stops everything.
    static func with(
        token: String? = nil,
        streamClients: Int = 64,
        _ body: (StatusHarness) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory("status")
        defer { directory.remove() }
        let store = try directory.openStore()
        var sources = StatusServer.Sources(
            store: store,
            board: ProviderHealthBoard(providers: [], time: .system),
            registry: PrometheusCollectorRegistry()
        )
        sources.addAccount = { text, _ in throw AccountChangeError.invalid("invalid address \(text)") }
        let bound = Mutex<Int?>(nil)
        let server = StatusServer(
            port: 0,
            sources: sources,
            token: token,
            streamClients: streamClients,
            logger: Logger(label: "status-test", factory: { _ in SwiftLogNoOpLogHandler() })
        ) { port in bound.withLock { $0 = port } }
        let group = ServiceGroup(
            configuration: .init(
                services: [server],
                logger: Logger(label: "status-test") { _ in SwiftLogNoOpLogHandler() }
            )
        )
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .untraced)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                let port = try await eventuallyValue("the status server to listen") { bound.withLock { $0 } }
                try await body(
                    StatusHarness(store: store, base: "http://127.0.0.1:\(port)", port: port, client: client)
                )
            } catch {
                await group.triggerGracefulShutdown()
                try? await client.shutdown()
                await store.close()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        try await client.shutdown()
        await store.close()
    }

    /// A request; answers status, body and headers.
    func request(
        _ path: String,
        method: HTTPMethod = .GET,
        headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> (status: Int, body: String, headers: HTTPHeaders) {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), String(buffer: bytes), response.headers)
    }

    /// Appends `count` events to the log, as the engine would.
    func append(_ count: Int, from first: Int = 0) async throws {
        try await store.write { txn in
            for n in first..<(first + count) {
                let body = #"{"id":"evt_\#(n)","type":"block.new","data":{"height":\#(n)}}"#
                _ = try txn.appendEvent(id: "evt_\(n)", type: "block.new", body: Array(body.utf8))
            }
        }
    }
}
