import AsyncHTTPClient
import Hummingbird
import Logging
import Synchronization
import WatcherCore
import WatcherHTTP

/// A real HTTP server on loopback (Hummingbird on `127.0.0.1`, port 0) that answers canned bodies by path (and
/// query), or, for JSON-RPC APIs (every call a `POST` of a JSON body), by the method and params of each call, so recorded responses reach an adapter through the real transport (``HTTPTransport`` over
/// AsyncHTTPClient). Unknown paths answer 404 with an empty body, or the `notFound` answer you give. It records the
/// URLs asked, and can break every answer on purpose (``Fault``) for ``FixtureContract``.
///
/// ```swift
/// try await FixtureServer.with(["/blocks/tip/height": .text("840000")]) { server in
///     let provider = MyProvider(id: "mine", baseURL: server.baseURL, http: server.http)
///     #expect(try await provider.tip().height == 840_000)
/// }
///
/// try await FixtureServer.with([:], rpc: ["getblockcount": .result("840000")]) { server in … }
/// ```
public final class FixtureServer: Sendable {
    /// One canned answer.
    public struct Answer: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The body, sent as it is.
        public var body: [UInt8]
        /// Extra headers, e.g. `Content-Type` or `Retry-After`.
        public var headers: [(name: String, value: String)]

        /// Creates an answer.
        public init(status: Int = 200, body: [UInt8], headers: [(name: String, value: String)] = []) {
            self.status = status
            self.body = body
            self.headers = headers
        }

        /// A plain-text answer.
        public static func text(_ text: String, status: Int = 200, headers: [(name: String, value: String)] = [])
            -> Self
        {
            Self(status: status, body: Array(text.utf8), headers: headers)
        }
    }

    /// One request the server got.
    public struct Received: Sendable {
        /// The full URL: ``FixtureServer/baseURL`` and the request target as sent (still percent-encoded).
        public var url: String
        /// Header values by lower-cased name.
        public var headers: [String: String]
    }

    /// What the server does to every answer while it is set (``setFault(_:)``).
    public enum Fault: Sendable {
        /// Answers this instead (a 503 page, a 429 with `Retry-After`, an error object with status 200).
        case replace(Answer)
        /// Holds each request this long before answering: past the client's budget, a timeout.
        case hold(Duration)
        /// Sends the real answer in 10 chunks spread over this long.
        case trickle(Duration)
        /// Sends only the first half of a JSON body, and nothing of a plain-text one.
        case truncated
    }

    private let answers: [String: Answer]
    /// JSON-RPC routes: `"<method>"` or `"<method> <params as compact JSON>"`.
    let rpc: [String: RPCReply]
    private let notFound: Answer
    private let port = Mutex(0)
    private let received = Mutex<[Received]>([])
    private let fault = Mutex<Fault?>(nil)
    /// The real transport, on a client ``with(_:notFound:_:)`` shuts down afterwards.
    public let http: HTTPTransport

    private init(_ answers: [String: Answer], rpc: [String: RPCReply], notFound: Answer, http: HTTPTransport) {
        self.answers = answers
        self.rpc = rpc
        self.notFound = notFound
        self.http = http
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public var baseURL: String {
        "http://127.0.0.1:\(port.withLock { $0 })"
    }

    /// The URLs requested so far, in arrival order.
    public var urls: [String] { requests.map(\.url) }

    /// The requests so far, in arrival order.
    public var requests: [Received] { received.withLock { $0 } }

    /// Breaks every answer from now on (`nil` restores them).
    public func setFault(_ fault: Fault?) { self.fault.withLock { $0 = fault } }

    /// Starts a server answering `answers` (keyed by path with query, `/rawaddr/1abc?limit=50`, or by path alone,
    /// `/api/v2/tx/abc`; other paths get `notFound`), and a `POST` whose body is a JSON-RPC call or batch by `rpc`
    /// (see ``RPCReply``), runs `body` with it, and stops the client and the server whether `body` returns or
    /// throws.
    @discardableResult
    public static func with<T>(
        _ answers: [String: Answer],
        rpc: [String: RPCReply] = [:],
        notFound: Answer = Answer(status: 404, body: []),
        _ body: (FixtureServer) async throws -> T
    ) async throws -> T {
        let client = HTTPClientService(logger: quietLogger)
        let server = FixtureServer(
            answers,
            rpc: rpc,
            notFound: notFound,
            http: HTTPTransport(client: client.client, userAgent: userAgent)
        )
        // The client goes first, so no kept-alive connection outlives it; then the server is stopped.
        let served = Mutex(false)
        do {
            return try await LoopbackServer.with(FixtureResponder(server: server), logger: quietLogger) { port in
                server.port.withLock { $0 = port }
                served.withLock { $0 = true }
                do {
                    let result = try await body(server)
                    await client.shutdown()
                    return result
                } catch {
                    await client.shutdown()
                    throw error
                }
            }
        } catch {
            if !served.withLock({ $0 }) { await client.shutdown() }
            throw error
        }
    }

    /// Runs `body` with the real transport on a fresh client (the daemon's settings, ``HTTPClientService``), and
    /// shuts the client down whether `body` returns or throws. For tests that need an ``HTTPFetching`` that is never
    /// asked anything, or that talk to a server of their own.
    @discardableResult
    public static func withTransport<T>(_ body: (HTTPTransport) async throws -> T) async throws -> T {
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
    public static let userAgent = "watcher-tests"

    static var quietLogger: Logger {
        Logger(label: "watcher.tests.fixture-server") { _ in SwiftLogNoOpLogHandler() }
    }

    /// The answer for a request target and the fault in force, recording the request.
    func answer(path: String, query: String?, target: String, headers: [String: String], body: [UInt8] = [])
        -> (Answer, Fault?)
    {
        received.withLock { $0.append(Received(url: baseURL + target, headers: headers)) }
        let withQuery = query.map { "\(path)?\($0)" } ?? path
        let answer = rpcAnswer(body: body) ?? answers[withQuery] ?? answers[path] ?? notFound
        return (answer, fault.withLock { $0 })
    }
}
