import Foundation
import HTTPTypes
import Synchronization
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// An RPC error object the node answered: `{"code": -5, "message": "…"}`.
struct RPCFailure: Error, Sendable {
    var code: Int
    var message: String
}

/// Bitcoin Core's JSON-RPC over HTTP (`POST /`) and its REST interface (`GET /rest/…`), mapped to
/// ``ProviderError``:
/// - 401 → `unavailable(401)` naming the credential option (never its value), after the cookie file was read again
///   once;
/// - 403 → `unavailable(403)`: the method is not on the user's `-rpcwhitelist`;
/// - 503 `Work queue depth exceeded` → `unavailable(503)`, which the scheduler backs off from as after a 429
///   (its overloaded path) and reports on `/healthz`;
/// - RPC errors (in a 200, or in Core's legacy 500/404/400 with a JSON body) → ``RPCFailure``, mapped by the caller
///   or by ``error(_:what:)``.
///
/// Requests speak JSON-RPC 1.0 until ``useVersion2(_:)`` says the node is Core 28 or later.
final class BitcoindRPC: Sendable {
    let provider: String
    let http: ProviderHTTP
    let credentials: BitcoindCredentials
    private let state = Mutex(State())

    private struct State {
        var nextID = 1
        var version2 = false
    }

    init(http: ProviderHTTP, credentials: BitcoindCredentials) {
        self.provider = http.provider
        self.http = http
        self.credentials = credentials
    }

    /// Whether requests say `"jsonrpc": "2.0"`.
    var speaksVersion2: Bool { state.withLock { $0.version2 } }

    /// Switches to JSON-RPC 2.0 when `networkVersion` (`getnetworkinfo.version`) is 280000 or more.
    func useVersion2(_ networkVersion: Int) {
        state.withLock { $0.version2 = networkVersion >= 280_000 }
    }

    /// Calls `method`; an RPC error is mapped by ``error(_:what:)``. `budget` replaces the `timeout` option for a
    /// long call (`scantxoutset`).
    func call(_ method: String, _ params: [JSONValue] = [], what: String, budget: Duration? = nil) async throws
        -> ProviderHTTP.JSONNode
    {
        switch try await attempt(method, params, what: what, budget: budget) {
        case .success(let node): return node
        case .failure(let failure): throw error(failure, what: what)
        }
    }

    /// Calls `method`, handing an RPC error back to the caller (for the codes that mean something there, as `-8`
    /// from `getblockhash` past the tip).
    func attempt(_ method: String, _ params: [JSONValue] = [], what: String, budget: Duration? = nil) async throws
        -> Result<ProviderHTTP.JSONNode, RPCFailure>
    {
        let results = try await batch([(method, params)], what: what, single: true, budget: budget)
        guard let first = results.first else {
            throw ProviderError.invalidResponse(provider: provider, detail: "no reply")
        }
        return first
    }

    /// Calls every `(method, params)` in one request (a JSON array; one call is sent bare), and returns the replies
    /// in the order asked, matched by id.
    func batch(_ calls: [(String, [JSONValue])], what: String, single: Bool = false, budget: Duration? = nil)
        async throws
        -> [Result<ProviderHTTP.JSONNode, RPCFailure>]
    {
        guard !calls.isEmpty else { return [] }
        let (firstID, version2) = state.withLock { state in
            defer { state.nextID += calls.count }
            return (state.nextID, state.version2)
        }
        let requests: [JSONValue] = calls.enumerated().map { offset, call in
            .object([
                .init("jsonrpc", .string(version2 ? "2.0" : "1.0")),
                .init("id", .number("\(firstID + offset)")),
                .init("method", .string(call.0)),
                .init("params", .array(call.1)),
            ])
        }
        let body = calls.count == 1 && single ? requests[0] : .array(requests)
        let node = try await post(body, what: what, budget: budget ?? http.options.timeout)
        let replies: [ProviderHTTP.JSONNode]
        if case .array = node.value { replies = try node.array() } else { replies = [node] }
        var byID: [Int: ProviderHTTP.JSONNode] = [:]
        for reply in replies {
            guard let id = try? reply.required("id").int() else {
                if let failure = try Self.failure(in: reply), replies.count == 1 { return [.failure(failure)] }
                throw reply.failure("a reply without an id at \(reply.place) for the \(what)")
            }
            byID[id] = reply
        }
        return try calls.indices.map { offset in
            guard let reply = byID[firstID + offset] else {
                throw node.failure("no reply to \(calls[offset].0) (id \(firstID + offset)) for the \(what)")
            }
            if let failure = try Self.failure(in: reply) { return .failure(failure) }
            guard let result = reply["result"] else {
                if reply.value["result"] == .null, case .object = reply.value { return .success(reply.nullResult) }
                throw reply.failure("a reply to \(calls[offset].0) with neither result nor error")
            }
            return .success(result)
        }
    }

    /// The error object of a reply, when it has one.
    static func failure(in reply: ProviderHTTP.JSONNode) throws -> RPCFailure? {
        guard let error = reply["error"] else { return nil }
        return RPCFailure(
            code: try error.required("code").int(),
            message: (try? error.required("message").string()) ?? ""
        )
    }

    /// The ``ProviderError`` for an RPC error.
    func error(_ failure: RPCFailure, what: String) -> ProviderError {
        switch failure.code {
        case -28:
            .unavailable(provider: provider, status: nil, detail: "the node is warming up: \(failure.message)")
        case -5:
            .notFound(provider: provider, what: what)
        case -32601:
            .unsupported(provider: provider, operation: what)
        case -32603:
            .unavailable(provider: provider, status: nil, detail: "internal error: \(failure.message)")
        default:
            .badRequest(provider: provider, detail: "\(failure.message) (RPC error \(failure.code), \(what))")
        }
    }

    /// POSTs `body` to `/` with the credentials, reading the cookie file again once after a 401.
    private func post(_ body: JSONValue, what: String, budget: Duration) async throws -> ProviderHTTP.JSONNode {
        var reloaded = false
        while true {
            let authorization = try credentials.authorization()
            var fields = http.options.headerFields
            fields[.contentType] = "application/json"
            fields[.authorization] = authorization
            let request = HTTPRequestSpec(
                method: .post,
                url: http.baseURL + "/",
                headerFields: fields,
                body: Array(body.serialized().utf8),
                budget: budget,
                maxBodyBytes: http.options.maxBodyBytes
            )
            let response = try await fetch(request, what: what)
            if response.status == 401 {
                if case .cookie = credentials.source, !reloaded {
                    reloaded = true
                    try credentials.reload()
                    continue
                }
                throw ProviderError.unavailable(
                    provider: provider,
                    status: 401,
                    detail: "unauthorized: the node refused the credentials of \(credentials.optionName)"
                )
            }
            return try read(response, what: what)
        }
    }

    /// The JSON of an RPC answer: any status whose body is a JSON-RPC reply (Core's legacy mode sends RPC errors
    /// with 500, 404 or 400), else the HTTP error.
    private func read(_ response: HTTPResponseData, what: String) throws -> ProviderHTTP.JSONNode {
        if response.status == 403 {
            throw ProviderError.unavailable(
                provider: provider,
                status: 403,
                detail: "the \(what) is forbidden to this user by the node's -rpcwhitelist"
            )
        }
        try checkOverload(response)
        let isReply: Bool = {
            guard let json = try? JSONValue.parse(response.body) else { return false }
            if case .array = json { return true }
            return json["error"] != nil || json["result"] != nil
        }()
        if response.status != 200, !isReply {
            try http.checkStatus(response)
            throw ProviderError.unavailable(
                provider: provider,
                status: response.status.code,
                detail: ProviderHTTP.snippet(response.body).isEmpty ? nil : ProviderHTTP.snippet(response.body)
            )
        }
        return try http.json(response)
    }

    /// 503 `Work queue depth exceeded`: the node's queue is full. `unavailable(503)` is the scheduler's overloaded
    /// path: a pause as after a 429, counted as a failure, and the reason shown on `/healthz`.
    func checkOverload(_ response: HTTPResponseData) throws {
        if response.status == 503, ProviderHTTP.snippet(response.body).hasPrefix("Work queue depth exceeded") {
            throw ProviderError.unavailable(
                provider: provider,
                status: 503,
                detail: "overloaded: work queue depth exceeded (raise the node's -rpcworkqueue, or lower this "
                    + "provider's rateLimit concurrency)"
            )
        }
    }

    /// `GET /rest/<path>`: the body of a 200; 404 → not found, 400 → rejected, 503 and 429 as for RPC.
    func rest(_ path: String, what: String) async throws -> [UInt8] {
        let response = try await fetch(http.options.request(http.baseURL + "/rest/" + path), what: what)
        try checkOverload(response)
        try http.checkStatus(response)
        switch response.status.code {
        case 200: return response.body
        case 404: throw ProviderError.notFound(provider: provider, what: what)
        case 400:
            throw ProviderError.badRequest(
                provider: provider,
                detail: "\(ProviderHTTP.snippet(response.body)) (\(what))"
            )
        default:
            throw ProviderError.unavailable(
                provider: provider,
                status: response.status.code,
                detail: "REST answered \(path) with \(response.status.code) (is the node run with rest=1?)"
            )
        }
    }

    private func fetch(_ request: HTTPRequestSpec, what: String) async throws -> HTTPResponseData {
        do {
            return try await http.http.fetch(request)
        } catch is CancellationError {
            throw CancellationError()
        } catch HTTPFetchError.tooLarge(let limit) {
            throw ProviderError.invalidResponse(
                provider: provider,
                detail: "the answer for the \(what) is larger than maxBodyBytes (\(limit) bytes); a block's JSON "
                    + "with prevouts can reach tens of MB: raise maxBodyBytes, or set prevouts to false"
            )
        } catch let error as HTTPFetchError {
            throw ProviderHTTP.error(error, provider: provider)
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError.transport(provider: provider, detail: String(describing: error))
        }
    }
}

extension ProviderHTTP.JSONNode {
    /// A `null` result (Core answers some calls with one).
    var nullResult: ProviderHTTP.JSONNode { ProviderHTTP.JSONNode(.null, path: "result", provider: provider) }
}
