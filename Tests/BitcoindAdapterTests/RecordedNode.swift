import Foundation
import HTTPTypes
import Hummingbird
import Synchronization
import Testing
import WatcherJSON
import WatcherTesting

/// A stand-in for Bitcoin Core on loopback, answering JSON-RPC (single calls and batches, legacy 1.0 replies with
/// the request's id) from recorded result and error bodies, and REST paths from recorded bodies. It checks the
/// `Authorization` header against the credentials it accepts now (a test rotates them), and records every call.
final class RecordedNode: Sendable {
    /// One canned answer to a method.
    enum Reply: Sendable {
        /// A result: the recorded JSON (or a JSON string of a recorded hex body).
        case result(JSONValue)
        /// An RPC error object, sent with Core's legacy status (500, or 404 for `-5`... Core sends 500 for all but
        /// method-not-found and invalid requests).
        case error(JSONValue)
        /// A whole HTTP answer (401, 403, 503 with its plain-text body).
        case http(status: Int, body: [UInt8])
    }

    private let replies: Mutex<[String: Reply]>
    private let rest: [String: [UInt8]]
    private let accepted = Mutex<String?>(nil)
    private let log = Mutex<[(method: String, params: String, version: String?, batch: Int)]>([])
    private let httpCount = Mutex(0)
    private let fault = Mutex<Reply?>(nil)

    /// Answers every RPC request with `reply` from now on (`nil`: the canned answers again).
    func setFault(_ reply: Reply?) { fault.withLock { $0 = reply } }

    init(_ replies: [String: Reply], rest: [String: [UInt8]] = [:], accepting authorization: String? = nil) {
        self.replies = Mutex(replies)
        self.rest = rest
        accepted.withLock { $0 = authorization }
    }

    /// Accepts only `authorization` from now on (`nil`: anything).
    func accept(_ authorization: String?) { accepted.withLock { $0 = authorization } }

    /// Replaces the answer to `key`.
    func set(_ key: String, _ reply: Reply) { replies.withLock { $0[key] = reply } }

    /// The methods called so far, in order.
    var methods: [String] { log.withLock { $0.map(\.method) } }
    /// `method params` of each call.
    var calls: [String] { log.withLock { $0.map { "\($0.method) \($0.params)" } } }
    /// The `jsonrpc` member of each call.
    var versions: [String?] { log.withLock { $0.map(\.version) } }
    /// HTTP requests so far.
    var requests: Int { httpCount.withLock { $0 } }

    /// Serves the node while `body` runs, with its base URL.
    func serve<T>(_ body: (String) async throws -> T) async throws -> T {
        try await LoopbackServer.with(Responder(node: self)) { port in try await body("http://127.0.0.1:\(port)") }
    }

    fileprivate func answer(path: String, authorization: String?, body: [UInt8]) -> (Int, [UInt8]) {
        httpCount.withLock { $0 += 1 }
        if path.hasPrefix("/rest/") {
            let key = String(path.dropFirst(6))
            return rest[key].map { (200, $0) } ?? (404, Array("Not found".utf8))
        }
        if let wanted = accepted.withLock({ $0 }), wanted != authorization { return (401, []) }
        if case .http(let code, let bytes)? = fault.withLock({ $0 }) { return (code, bytes) }
        guard let request = try? JSONValue.parse(body) else { return (500, Array("parse error".utf8)) }
        let batch: [JSONValue]
        if case .array(let items) = request { batch = items } else { batch = [request] }
        var out: [JSONValue] = []
        var status = 200
        for call in batch {
            let method = call["method"]?.stringValue ?? ""
            let params = (call["params"] ?? .array([])).serialized()
            log.withLock { $0.append((method, params, call["jsonrpc"]?.stringValue, batch.count)) }
            let reply = replies.withLock { $0["\(method) \(params)"] ?? $0[method] }
            let id = call["id"] ?? .null
            switch reply {
            case .http(let code, let bytes)?: return (code, bytes)
            case .result(let value)?:
                out.append(.object([.init("result", value), .init("error", .null), .init("id", id)]))
            case .error(let error)?:
                status = 500
                out.append(.object([.init("result", .null), .init("error", error), .init("id", id)]))
            case nil:
                status = 404
                let error = JSONValue.object([
                    .init("code", .number("-32601")), .init("message", .string("Method not found")),
                ])
                out.append(.object([.init("result", .null), .init("error", error), .init("id", id)]))
            }
        }
        if case .array = request { return (200, Array(JSONValue.array(out).serialized().utf8)) }
        return (status, Array(out[0].serialized().utf8))
    }

    private struct Responder: HTTPResponder {
        typealias Context = BasicRequestContext
        let node: RecordedNode

        func respond(to request: Request, context: Context) async throws -> Response {
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let (status, bytes) = node.answer(
                path: request.uri.path,
                authorization: request.headers[.authorization],
                body: Array(buffer.readableBytesView)
            )
            return Response(
                status: HTTPResponse.Status(code: status),
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
            )
        }
    }
}

/// The recorded bodies of `Fixtures/bitcoind` (see its SOURCES.md).
enum Recorded {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/bitcoind/\(name)"))
        return Array(try Data(contentsOf: url))
    }

    /// A `.json` fixture as JSON.
    static func json(_ name: String) throws -> JSONValue { try JSONValue.parse(try bytes(name)) }

    /// A `.txt` fixture (a bare hex result) as the JSON string RPC answers it with.
    static func hex(_ name: String) throws -> JSONValue {
        .string(String(decoding: try bytes(name), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A cookie file in a fresh temporary directory, removed after `body`.
    static func withCookie<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bitcoind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(".cookie").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try await body(path)
    }

    static func basic(_ credentials: String) -> String { "Basic " + Data(credentials.utf8).base64EncodedString() }
}
