import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus
import WatcherCore
import WatcherStorage

/// The status server's handlers.
struct StatusRoutes: Sendable {
    let sources: StatusServer.Sources

    func add(to router: Router<BasicRequestContext>) {
        router.get("healthz") { _, _ in self.health() }
        router.head("healthz") { _, _ in self.health() }
        for method in [HTTPRequest.Method.post, .put, .delete, .patch] {
            router.on("healthz", method: method) { _, _ in
                Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
            }
        }
        router.get("metrics") { _, _ in self.metrics() }
        router.get("api/blocks") { request, _ in try self.blocks(request) }
        router.get("api/accounts") { _, _ in try self.accounts() }
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: value.serialized(pretty: true) + "\n"))
        )
    }

    /// 200 when every provider is reachable and in sync; 503 with the reasons otherwise.
    func health() -> Response {
        let entries = sources.board.snapshot()
        var reasons: [JSONValue.Member] = []
        for (provider, entry) in entries.sorted(by: { $0.key < $1.key }) where !entry.isHealthy {
            let why = [entry.reachabilityReason, entry.syncReason].compactMap { $0 }.joined(separator: "; ")
            reasons.append(.init(provider, .string(why.isEmpty ? "unhealthy" : why)))
        }
        let healthy = reasons.isEmpty
        return Self.json(
            .object([
                .init("status", .string(healthy ? "ok" : "degraded")),
                .init(
                    "providers",
                    .object(entries.keys.sorted().map { .init($0, .bool(entries[$0]?.isHealthy ?? false)) })
                ),
                .init("reasons", .object(reasons)),
            ]),
            status: healthy ? .ok : .serviceUnavailable
        )
    }

    func metrics() -> Response {
        sources.beforeScrape()
        var buffer: [UInt8] = []
        sources.registry.emit(into: &buffer)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: buffer))
        )
    }

    func blocks(_ request: Request) throws -> Response {
        var limit = 20
        if let text = request.uri.queryParameters.get("limit") {
            guard let value = Int(text), (1...1000).contains(value) else {
                return Self.json(
                    .object([
                        .init(
                            "error",
                            .string("limit must be an integer from 1 to 1000, got \(JSONValue.quoted(String(text)))")
                        )
                    ]),
                    status: .badRequest
                )
            }
            limit = value
        }
        let chain = sources.chain
        let headers = try sources.store.read { try $0.recentHeaders(chain: chain, limit: limit) }
        return Self.json(.array(headers.map(StatusJSON.block)))
    }

    func accounts() throws -> Response {
        let chain = sources.chain
        let (accounts, states) = try sources.store.read { txn in
            (try txn.accounts(chain: chain), try txn.addressStates(chain: chain))
        }
        let summaries = Dictionary(states.compactMap { state in state.summary.map { (state.address, $0) } }) { a, _ in a
        }
        return Self.json(.array(accounts.map { StatusJSON.account($0, summaries[$0.address]) }))
    }
}

/// The JSON mirrors of the CLI's `--json` output (the field names are defined once, in `WatcherCore`).
enum StatusJSON {
    static func block(_ header: BlockHeader) -> JSONValue { header.json }

    static func account(_ account: Account, _ summary: AddressSummary?) -> JSONValue {
        let base =
            (summary
            ?? AddressSummary(
                address: account.address,
                balanceSat: nil,
                totalReceivedSat: nil,
                totalSentSat: nil,
                txCount: nil,
                unconfirmedBalanceSat: nil,
                unconfirmedTxCount: nil
            )).jsonMembers
        return .object([base[0], .init("label", account.label.map(JSONValue.string) ?? .null)] + base.dropFirst())
    }
}
