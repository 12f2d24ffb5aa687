import HTTPTypes
import Hummingbird
import ServiceLifecycle
import WatcherSimnet

/// The Hummingbird responder of a ``FixtureServer``: the canned answer for the path, changed by the fault in force.
struct FixtureResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let server: FixtureServer

    func respond(to request: Request, context: Context) async throws -> Response {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        // A JSON-RPC call is routed by its body: read it only where there are RPC routes.
        var body: [UInt8] = []
        if !server.rpc.isEmpty, request.method == .post {
            body = Array(buffer: try await request.body.collect(upTo: 16 << 20))
        }
        let (answer, fault) = server.answer(
            path: request.uri.path,
            query: request.uri.query,
            target: request.uri.string,
            headers: headers,
            body: body
        )
        switch fault {
        case nil:
            return Self.response(answer)
        case .replace(let other):
            return Self.response(other)
        case .hold(let duration):
            // Past any client budget, but graceful shutdown releases the request.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
            return Self.response(FixtureServer.Answer.text("held", status: 504))
        case .trickle(let duration):
            return Self.response(answer, trickleOver: duration)
        case .truncated:
            // Half a JSON body; a plain-text body (a height, a hash) is cut to nothing, as half of it can still read
            // as a valid, wrong answer.
            var cut = answer
            let isJSON =
                answer.body.first { ![9, 10, 13, 32].contains($0) }.map {
                    $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[")
                } ?? false
            cut.body = isJSON ? Array(answer.body.prefix(max(1, answer.body.count / 2))) : []
            return Self.response(cut)
        }
    }

    /// The response; with `trickleOver`, the body goes out in 10 chunks spread over that time.
    static func response(_ answer: FixtureServer.Answer, trickleOver duration: Duration? = nil) -> Response {
        var fields = HTTPFields()
        for header in answer.headers {
            if let name = HTTPField.Name(header.name) { fields[name] = header.value }
        }
        let status = HTTPResponse.Status(code: answer.status)
        return .bytes(answer.body, status: status, headers: fields, trickleOver: duration)
    }
}
