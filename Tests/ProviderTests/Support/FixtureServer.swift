import AsyncHTTPClient
import Hummingbird
import Logging
import Synchronization
import WatcherCore
import WatcherHTTP

/// A real HTTP server on loopback (Hummingbird on `127.0.0.1`, port 0) that answers canned fixture bodies by
/// path (and query), so fixture bodies reach the adapters through the real transport (``HTTPTransport`` over
/// AsyncHTTPClient). Unknown paths answer 404 with an empty body. It records the URLs asked.
///
/// ```swift
/// try await FixtureServer.with(["/api/": try Fixture.answer("blockbook/status.json")]) { server in
///     let bb = BlockbookProvider(id: "bb", baseURL: server.baseURL, http: server.http)
///     _ = try await bb.health()
/// }
/// ```
final class FixtureServer: Sendable {
    /// One canned answer.
    struct Answer: Sendable {
        var status = 200
        var body: [UInt8]
        var headers: [(name: String, value: String)] = []
    }

    /// One request the server got.
    struct Received: Sendable {
        /// The full URL: ``FixtureServer/baseURL`` and the request target as sent (still percent-encoded).
        var url: String
        /// Header values by lower-cased name.
        var headers: [String: String]
    }

    private enum Listening {
        case waiting([CheckedContinuation<Int, any Error>])
        case bound(port: Int)
        case stopped(String)
    }

    struct NotListening: Error, CustomStringConvertible {
        let reason: String
        var description: String { "the fixture server is not listening: \(reason)" }
    }

    private let answers: [String: Answer]
    private let listening = Mutex<Listening>(.waiting([]))
    private let received = Mutex<[Received]>([])
    /// The real transport, on a client ``with(_:_:)`` shuts down afterwards.
    let http: HTTPTransport

    private init(_ answers: [String: Answer], http: HTTPTransport) {
        self.answers = answers
        self.http = http
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    var baseURL: String {
        let port = listening.withLock { state -> Int in
            if case .bound(let port) = state { return port }
            return 0
        }
        return "http://127.0.0.1:\(port)"
    }

    /// The URLs requested so far, in arrival order.
    var urls: [String] { requests.map(\.url) }

    /// The requests so far, in arrival order.
    var requests: [Received] { received.withLock { $0 } }

    /// Starts a server answering `answers` (keyed by path with query, `/rawaddr/1abc?limit=50`, or by path alone,
    /// `/api/v2/tx/abc`), runs `body` with it, and stops the client and the server whether `body` returns or throws.
    @discardableResult
    static func with<T>(_ answers: [String: Answer], _ body: (FixtureServer) async throws -> T) async throws -> T {
        let client = HTTPClientService(logger: quietLogger)
        let server = FixtureServer(answers, http: HTTPTransport(client: client.client, userAgent: userAgent))
        let app = Application(
            responder: FixtureResponder(server: server),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in server.didBind(port: channel.localAddress?.port) },
            logger: quietLogger
        )
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask {
                do {
                    try await app.run()
                    server.didStop("the server finished")
                } catch {
                    server.didStop("\(error)")
                }
            }
            // The client goes first, so no kept-alive connection outlives it; then the server is cancelled.
            do {
                try await server.waitUntilListening()
                let result = try await body(server)
                await client.shutdown()
                group.cancelAll()
                try await group.waitForAll()
                return result
            } catch {
                await client.shutdown()
                group.cancelAll()
                try? await group.waitForAll()
                throw error
            }
        }
    }

    /// Runs `body` with the real transport on a fresh client (the daemon's settings, ``HTTPClientService``), and
    /// shuts the client down whether `body` returns or throws. For tests that need an ``HTTPFetching`` that is never
    /// asked anything, or that talk to a server of their own.
    @discardableResult
    static func withTransport<T>(_ body: (HTTPTransport) async throws -> T) async throws -> T {
        let service = HTTPClientService(logger: quietLogger)
        let http = HTTPTransport(client: service.client, userAgent: userAgent)
        do {
            let result = try await body(http)
            await service.shutdown()
            return result
        } catch {
            await service.shutdown()
            throw error
        }
    }

    /// The `User-Agent` the transport sends.
    static let userAgent = "watcher-tests"

    static var quietLogger: Logger {
        Logger(label: "watcher.tests.fixture-server") { _ in SwiftLogNoOpLogHandler() }
    }

    /// The answer for a request target, recording it.
    fileprivate func answer(path: String, query: String?, target: String, headers: [String: String]) -> Answer {
        received.withLock { $0.append(Received(url: baseURL + target, headers: headers)) }
        let withQuery = query.map { "\(path)?\($0)" } ?? path
        return answers[withQuery] ?? answers[path] ?? Answer(status: 404, body: [])
    }

    private func waitUntilListening() async throws {
        _ = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            let ready: Result<Int, any Error>? = listening.withLock { state in
                switch state {
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                case .bound(let port): return .success(port)
                case .stopped(let reason): return .failure(NotListening(reason: reason))
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func didBind(port: Int?) {
        guard let port else { return didStop("no local port") }
        let waiters = listening.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .bound(port: port)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: port) }
    }

    private func didStop(_ reason: String) {
        let waiters = listening.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .stopped(reason)
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: NotListening(reason: reason)) }
    }
}

extension FixtureServer.Answer {
    /// A plain-text answer.
    static func text(_ text: String, status: Int, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, body: Array(text.utf8), headers: headers)
    }
}

/// The Hummingbird responder of a ``FixtureServer``.
private struct FixtureResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let server: FixtureServer

    func respond(to request: Request, context: Context) async throws -> Response {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let answer = server.answer(
            path: request.uri.path,
            query: request.uri.query,
            target: request.uri.string,
            headers: headers
        )
        var fields = HTTPFields()
        for header in answer.headers {
            // A canned header name is a valid token; the type is HTTPTypes' `HTTPField.Name`.
            fields[.init(header.name)!] = header.value
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }
}
