import WatcherJSON

extension FixtureServer {
    /// A canned JSON-RPC reply (Bitcoin Core's and Electrum-style `POST /` APIs route by method, not by path): the
    /// server wraps it in a reply envelope carrying the request's `id`, one per call of a batch.
    public enum RPCReply: Sendable {
        /// The `result` member: the recorded JSON text (a bare hex result is a JSON string, `"\"00ab…\""`).
        case result(String)
        /// The `error` member: a recorded error object, `{"code": -5, "message": "…"}`.
        case error(String)
    }

    /// The reply to an RPC call: the route `"<method> <params>"` (params as compact JSON, `getblockhash [1000]`)
    /// when there is one, else the route `"<method>"`, else Core's `-32601 Method not found`.
    func rpcReply(method: String, params: JSONValue) -> JSONValue {
        let specific = rpc["\(method) \(params.serialized())"]
        switch specific ?? rpc[method] {
        case .result(let text)?:
            return .object([
                .init("result", (try? JSONValue.parse(Array(text.utf8))) ?? .string(text)), .init("error", .null),
            ])
        case .error(let text)?:
            return .object([
                .init("result", .null), .init("error", (try? JSONValue.parse(Array(text.utf8))) ?? .string(text)),
            ])
        case nil:
            return .object([
                .init("result", .null),
                .init(
                    "error",
                    .object([.init("code", .number("-32601")), .init("message", .string("Method not found"))])
                ),
            ])
        }
    }

    /// The answer to a JSON-RPC body (one call, or a batch: an array of replies in the calls' order), each reply with
    /// the call's `id`; `nil` when the body is not JSON-RPC (the path routes then answer).
    func rpcAnswer(body: [UInt8]) -> Answer? {
        guard !rpc.isEmpty, let json = try? JSONValue.parse(body) else { return nil }
        func reply(_ call: JSONValue) -> JSONValue? {
            guard case .object = call, case .string(let method)? = call["method"] else { return nil }
            guard case .object(var members) = rpcReply(method: method, params: call["params"] ?? .array([])) else {
                return nil
            }
            members.append(.init("id", call["id"] ?? .null))
            return .object(members)
        }
        let answer: JSONValue
        switch json {
        case .array(let calls):
            let replies = calls.compactMap(reply)
            guard replies.count == calls.count else { return nil }
            answer = .array(replies)
        default:
            guard let one = reply(json) else { return nil }
            answer = one
        }
        return Answer(body: Array(answer.serialized().utf8), headers: [("Content-Type", "application/json")])
    }
}
