import WatcherCore
import WatcherJSON

/// Bitcoin Core's JSON-RPC endpoint (`POST /`, `src/httprpc.cpp` of Core 28+): basic auth (user/password or the
/// cookie), JSON-RPC 1.x replies (`result`, `error`, `id`; errors with HTTP 500, 404 for an unknown method, 400 for
/// a bad request) or 2.0 replies when the request says `"jsonrpc":"2.0"` (one of `result`/`error`, HTTP 200; a
/// notification gets 204), and batches (HTTP 200, one reply per request).
struct NodeJSONRPC: Sendable {
    let rpc: NodeRPC
    let settings: NodeSettings
    let credentials: NodeCredentials

    /// One parsed request of a body.
    private struct Call {
        var id: JSONValue?
        var version2: Bool
        var method: Result<String, RPCError>
        var params: JSONValue?
    }

    /// The statistics keys of a body: its method names (`/` when it does not parse).
    static func endpoints(_ body: [UInt8]) -> [String] {
        guard let value = try? JSONValue.parse(body) else { return ["/"] }
        let items = value.arrayValue ?? [value]
        let names = items.compactMap { $0["method"]?.stringValue }
        return names.isEmpty ? ["/"] : names
    }

    func reply(httpMethod: String, authorization: String?, body: [UInt8]) -> SimReply {
        guard httpMethod == "POST" else { return .text("JSONRPC server handles only POST requests", status: 405) }
        guard credentials.accepts(authorization) else {
            var reply = SimReply(status: 401, contentType: "text/html; charset=ISO-8859-1", body: [])
            reply.wwwAuthenticate = #"Basic realm="jsonrpc""#
            return reply
        }
        guard let document = try? JSONValue.parse(body) else {
            return Self.envelope(.object(Self.members(result: nil, error: .parseError, id: nil, version2: false)), 500)
        }
        switch document {
        case .object:
            let call = parse(document)
            if case .success(let method) = call.method, settings.forbiddenMethods.contains(method) {
                return SimReply(status: 403, contentType: "text/html; charset=ISO-8859-1", body: [])
            }
            let outcome = execute(call)
            if call.version2 && call.id == nil { return SimReply(status: 204, contentType: Self.jsonType, body: []) }
            let status: Int =
                if case .failure(let error) = outcome, !call.version2 { error.legacyStatus } else { 200 }
            return Self.envelope(.object(members(call, outcome)), status)
        case .array(let items):
            // Core refuses an empty batch as an invalid request (the shared fixture's transcription).
            guard !items.isEmpty else {
                let error = RPCError.invalidRequest()
                return Self.envelope(.object(Self.members(result: nil, error: error, id: nil, version2: false)), 200)
            }
            let calls = items.map(parse)
            for call in calls {
                if case .success(let method) = call.method, settings.forbiddenMethods.contains(method) {
                    return SimReply(status: 403, contentType: "text/html; charset=ISO-8859-1", body: [])
                }
            }
            var replies: [JSONValue] = []
            for call in calls {
                let outcome = execute(call)
                if call.version2 && call.id == nil { continue }
                replies.append(.object(members(call, outcome)))
            }
            if replies.isEmpty { return SimReply(status: 204, contentType: Self.jsonType, body: []) }
            return Self.envelope(.array(replies), 200)
        default:
            let error = RPCError(code: -32700, message: "Top-level object parse error")
            return Self.envelope(.object(Self.members(result: nil, error: error, id: nil, version2: false)), 500)
        }
    }

    private func parse(_ value: JSONValue) -> Call {
        guard case .object = value else {
            return Call(id: nil, version2: false, method: .failure(.invalidRequest("Invalid Request object")))
        }
        let version2 = value["jsonrpc"]?.stringValue == "2.0"
        let id = value["id"]
        let method: Result<String, RPCError> =
            switch value["method"] {
            case nil: .failure(.invalidRequest("Missing method"))
            case .string(let name)?: .success(name)
            default: .failure(.invalidRequest("Method must be a string"))
            }
        return Call(id: id ?? (version2 ? nil : .null), version2: version2, method: method, params: value["params"])
    }

    private func execute(_ call: Call) -> Result<JSONValue, RPCError> {
        let method: String
        switch call.method {
        case .success(let name): method = name
        case .failure(let error): return .failure(error)
        }
        if settings.warmup { return .failure(RPCError(code: -28, message: settings.warmupMessage)) }
        do {
            return .success(try rpc.call(method, call.params))
        } catch {
            return .failure(error)
        }
    }

    private func members(_ call: Call, _ outcome: Result<JSONValue, RPCError>) -> [JSONValue.Member] {
        switch outcome {
        case .success(let result): Self.members(result: result, error: nil, id: call.id, version2: call.version2)
        case .failure(let error): Self.members(result: nil, error: error, id: call.id, version2: call.version2)
        }
    }

    /// Core's `JSONRPCReplyObj`: 2.0 adds `jsonrpc` and leaves out the null one of `result`/`error`.
    private static func members(result: JSONValue?, error: RPCError?, id: JSONValue?, version2: Bool)
        -> [JSONValue.Member]
    {
        var members: [JSONValue.Member] = []
        if version2 { members.append(.init("jsonrpc", .string("2.0"))) }
        if let error {
            if !version2 { members.append(.init("result", .null)) }
            members.append(.init("error", error.json))
        } else {
            members.append(.init("result", result ?? .null))
            if !version2 { members.append(.init("error", .null)) }
        }
        members.append(.init("id", id ?? .null))
        return members
    }

    static let jsonType = "application/json"

    /// A reply body as Core writes it: compact JSON and a newline.
    private static func envelope(_ value: JSONValue, _ status: Int) -> SimReply {
        SimReply(status: status, contentType: jsonType, body: Array((value.serialized() + "\n").utf8))
    }
}
