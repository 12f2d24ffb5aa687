import Foundation
import Hummingbird
import Logging
import Synchronization
import WatcherCore
import WatcherTesting

/// A request a ``TestReceiver`` got.
package struct ReceivedRequest: Sendable {
    package var path: String
    /// Header values by lower-cased name.
    package var headers: [String: String]
    package var body: [UInt8]
    /// The manual clock's reading at arrival, when the receiver has one.
    package var clockOffset: Duration?

    package var webhookID: String { headers["webhook-id"] ?? "" }
}

/// What a receiver answers.
package struct Reply: Sendable {
    package var status: Int
    package var retryAfter: String?
    /// A `Location` header (a redirect).
    package var location: String?
    /// The body; `ok` when not set.
    package var body: String?
    /// Hold the answer this long (a slow or hanging endpoint).
    package var delay: Duration?

    /// An answer.
    package init(
        status: Int,
        retryAfter: String? = nil,
        location: String? = nil,
        body: String? = nil,
        delay: Duration? = nil
    ) {
        self.status = status
        self.retryAfter = retryAfter
        self.location = location
        self.body = body
        self.delay = delay
    }

    package static let ok = Reply(status: 200)
}

/// A real HTTP endpoint on loopback (Hummingbird on port 0) whose answers a test scripts. It records every request
/// with the status it answered.
package final class TestReceiver: Sendable {
    /// Decides the answer from the request and how many times this `webhook-id` arrived before (0 the first time).
    package typealias Behaviour = @Sendable (_ request: ReceivedRequest, _ previousAttempts: Int) -> Reply

    private let state = Mutex<(requests: [(ReceivedRequest, Int)], port: Int?)>(([], nil))
    private let behaviour: Mutex<Behaviour>
    package let clock: ManualClock?

    package init(clock: ManualClock? = nil, _ behaviour: @escaping Behaviour) {
        self.clock = clock
        self.behaviour = Mutex(behaviour)
    }

    /// The endpoint URL.
    package var url: String { "http://127.0.0.1:\(state.withLock { $0.port } ?? 0)/hook" }

    /// Every request so far, with the status answered.
    package var log: [(request: ReceivedRequest, status: Int)] { state.withLock { $0.requests.map { ($0.0, $0.1) } } }

    /// The `webhook-id`s of every request, in arrival order.
    package var ids: [String] { log.map(\.request.webhookID) }

    /// The ids answered with a 2xx, in order.
    package var deliveredIDs: [String] { log.filter { (200..<300).contains($0.status) }.map(\.request.webhookID) }

    /// Changes the script.
    package func answer(_ behaviour: @escaping Behaviour) { self.behaviour.withLock { $0 = behaviour } }

    package func bound(_ port: Int?) { state.withLock { $0.port = port } }
    package var port: Int? { state.withLock { $0.port } }

    package func respond(_ request: ReceivedRequest) async -> Reply {
        let script = behaviour.withLock { $0 }
        let previous = state.withLock { state in state.requests.filter { $0.0.webhookID == request.webhookID }.count }
        let reply = script(request, previous)
        state.withLock { $0.requests.append((request, reply.status)) }
        if let delay = reply.delay { try? await Task.sleep(for: delay) }
        return reply
    }
}

/// The Hummingbird responder of a ``TestReceiver``.
package struct ReceiverResponder: HTTPResponder {
    package typealias Context = BasicRequestContext
    package let receiver: TestReceiver

    package func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let received = ReceivedRequest(
            path: request.uri.path,
            headers: headers,
            body: Array(body.readableBytesView),
            clockOffset: receiver.clock?.now.offset
        )
        let reply = await receiver.respond(received)
        var fields = HTTPFields()
        if let retryAfter = reply.retryAfter { fields[.retryAfter] = retryAfter }
        if let location = reply.location { fields[.location] = location }
        return Response(
            status: HTTPResponse.Status(code: reply.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array((reply.body ?? "ok").utf8)))
        )
    }
}

/// Runs `body` with one listening receiver per behaviour; the servers stop when it returns.
package func withReceivers<T: Sendable>(
    clock: ManualClock? = nil,
    _ behaviours: [TestReceiver.Behaviour],
    _ body: @Sendable ([TestReceiver]) async throws -> T
) async throws -> T {
    try await serve(behaviours.map { TestReceiver(clock: clock, $0) }, started: [], body)
}

/// Starts the first of `pending` on loopback, then the rest inside it, then runs `body` with all of them.
private func serve<T: Sendable>(
    _ pending: [TestReceiver],
    started: [TestReceiver],
    _ body: @Sendable ([TestReceiver]) async throws -> T
) async throws -> T {
    guard let receiver = pending.first else { return try await body(started) }
    return try await LoopbackServer.with(ReceiverResponder(receiver: receiver)) { port in
        receiver.bound(port)
        return try await serve(Array(pending.dropFirst()), started: started + [receiver], body)
    }
}
