import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherJSON
import WatcherSimnet

/// Talks to the simnet's Bitcoin Core face over real HTTP: JSON-RPC at `POST /` with basic auth, REST by `GET`.
enum NodeHarness {
    /// `Basic` credentials for `user:password`.
    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    static let defaultAuth = basic("watcher", "watcher")

    /// Posts `body` to `/` with `authorization` (none when `nil`).
    static func post(_ simnet: Simnet, _ body: String, authorization: String? = defaultAuth) async throws -> HTTPAnswer
    {
        var request = HTTPClientRequest(url: simnet.baseURL + "/")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        request.body = .bytes(ByteBuffer(string: body))
        return try await SimnetHarness.send(request, timeout: .seconds(20))
    }

    /// One legacy JSON-RPC call; returns the whole reply object and the HTTP status.
    static func call(_ simnet: Simnet, _ method: String, _ params: String = "[]") async throws -> (Int, JSONValue) {
        let answer = try await post(simnet, #"{"jsonrpc":"1.0","id":"t","method":"\#(method)","params":\#(params)}"#)
        return (answer.status, try answer.json())
    }

    /// The `result` of a call that must succeed.
    static func result(
        _ simnet: Simnet,
        _ method: String,
        _ params: String = "[]",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let (status, reply) = try await call(simnet, method, params)
        try #require(
            status == 200 && reply["error"] == .null,
            "\(method) \(params): \(status) \(reply.serialized())",
            sourceLocation: sourceLocation
        )
        return try #require(reply["result"], sourceLocation: sourceLocation)
    }

    /// The `error` object of a call that must fail.
    static func error(_ simnet: Simnet, _ method: String, _ params: String = "[]") async throws -> JSONValue {
        let (_, reply) = try await call(simnet, method, params)
        return reply["error"] ?? .null
    }

    /// A recorded Bitcoin Core body of `Fixtures/bitcoind/` (see the `SOURCES.md` beside it).
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/bitcoind/\(name)")
        return Array(try Data(contentsOf: url))
    }
}
