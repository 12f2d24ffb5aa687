import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherStorage

/// The JSON API (`docs/openapi.yaml`): blocks, accounts (with writes), wallets (with `next`), prices and the event
/// log.
struct APIRoutes: Sendable {
    let data: StatusData
    let writes: WriteGuard
    let stream: EventBroadcaster

    var sources: StatusServer.Sources { data.sources }

    func add(to router: Router<StatusRequestContext>) {
        router.get("api/blocks") { request, _ in try self.blocks(request) }
        router.get("api/blocks/:id") { _, context in await self.block(context.parameters.get("id") ?? "") }
        router.get("api/accounts") { _, _ in try Self.json(.array(self.data.accounts().map(\.json))) }
        router.post("api/accounts") { request, _ in await self.addAccount(request) }
        router.delete("api/accounts/:address") { request, context in
            await self.removeAccount(request, context.parameters.get("address") ?? "")
        }
        router.get("api/wallets") { _, _ in try self.wallets() }
        router.get("api/wallets/:id") { _, context in try self.wallet(context.parameters.get("id") ?? "") }
        router.post("api/wallets/:id/next") { request, context in
            await self.nextAddress(request, context.parameters.get("id") ?? "")
        }
        RequestRoutes(data: data, writes: writes).add(to: router)
        router.get("api/prices") { _, _ in try Self.json(.array(self.data.prices().map(\.json))) }
        router.get("api/events") { request, _ in try self.events(request) }
        router.get("api/events/stream") { request, context in
            EventStream(broadcaster: self.stream).response(request, context: context)
        }
        MethodGuard.allow(["api/blocks", "api/blocks/:id", "api/prices", "api/events", "api/events/stream"], [.get])
            .add(to: router)
        MethodGuard.allow(["api/accounts"], [.get, .post]).add(to: router)
        MethodGuard.allow(["api/accounts/:address"], [.delete]).add(to: router)
        MethodGuard.allow(["api/wallets/:id/next"], [.post]).add(to: router)
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: value.serialized(pretty: true) + "\n"))
        )
    }

    /// `{"error": message}`: the only shape of an error answer, plain text, no internals.
    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        json(.object([.init("error", .string(message))]), status: status)
    }

    /// A `limit` query parameter from 1 to `max`, `fallback` when absent; `nil` when malformed.
    static func limit(_ request: Request, fallback: Int, max: Int = 1000) -> Int? {
        guard let text = request.uri.queryParameters.get("limit") else { return fallback }
        guard let value = Int(text), (1...max).contains(value) else { return nil }
        return value
    }

    func blocks(_ request: Request) throws -> Response {
        guard let limit = Self.limit(request, fallback: 20) else {
            let text = request.uri.queryParameters.get("limit").map { String($0) } ?? ""
            return Self.error(
                "limit must be an integer from 1 to 1000, got \(JSONValue.quoted(text))",
                status: .badRequest
            )
        }
        return Self.json(.array(try data.blocks(limit: limit).map(StatusJSON.block)))
    }

    func block(_ id: String) async -> Response {
        let id = id.removingPercentEncoding ?? id
        guard let blockID = BlockID(id) else {
            return Self.error(
                "invalid block \(JSONValue.quoted(id)): expected a height or a 64-hex hash",
                status: .badRequest
            )
        }
        do {
            guard let header = try await data.block(blockID) else {
                return Self.error("block \(id) is not stored", status: .notFound)
            }
            return Self.json(StatusJSON.block(header))
        } catch let error as ProviderError {
            if case .notFound = error { return Self.error("block \(id) not found", status: .notFound) }
            return Self.error("the providers could not answer: \(error.summary)", status: .badGateway)
        } catch {
            return Self.error("block \(id) could not be read", status: .internalServerError)
        }
    }

    func addAccount(_ request: Request) async -> Response {
        if let refusal = writes.refusal(request) { return refusal }
        guard let add = sources.addAccount else {
            return Self.error("this server does not add accounts", status: .methodNotAllowed)
        }
        let text: String
        let label: String?
        do throws(WriteBody.Refusal) {
            let shape = #"{"address": "...", "label": "..."}"#
            let object = try await WriteBody.object(request, shape: shape)
            guard let address = object?["address"]?.stringValue else {
                return Self.error("expected a JSON object \(shape)", status: .badRequest)
            }
            (text, label) = (address, try WriteBody.label(object))
        } catch {
            return error.response
        }
        do {
            let (account, summary) = try await add(text.trimmingCharacters(in: .whitespacesAndNewlines), label)
            let prices = (try? data.prices()) ?? []
            return Self.json(
                AccountJSON.account(address: account.address, label: account.label, summary: summary, fiat: prices),
                status: .created
            )
        } catch let error as AccountChangeError {
            return Self.error(error.publicDescription, status: Self.status(error))
        } catch {
            return Self.error("the account could not be stored", status: .internalServerError)
        }
    }

    func removeAccount(_ request: Request, _ address: String) async -> Response {
        if let refusal = writes.refusal(request) { return refusal }
        guard let remove = sources.removeAccount else {
            return Self.error("this server does not remove accounts", status: .methodNotAllowed)
        }
        do {
            let outcome = try await remove(address.removingPercentEncoding ?? address)
            return Self.json(.object([.init("result", .string(outcome))]))
        } catch let error as AccountChangeError {
            return Self.error(error.publicDescription, status: Self.status(error))
        } catch {
            return Self.error("the account could not be removed", status: .internalServerError)
        }
    }

    static func status(_ error: AccountChangeError) -> HTTPResponse.Status {
        switch error {
        case .invalid: .badRequest
        case .noTransactions: .unprocessableContent
        case .providers: .badGateway
        case .notFollowed: .notFound
        case .followedByConfig: .conflict
        }
    }

    /// `GET /api/wallets`: exactly what `watcher wallets list --json` prints.
    func wallets() throws -> Response {
        let prices = try data.prices()
        return Self.json(.array(try data.wallets().map { WalletViews.summary($0, prices: prices) }))
    }

    /// `GET /api/wallets/{id}`: exactly what `watcher wallets show <id> --json` prints.
    func wallet(_ id: String) throws -> Response {
        guard let wallet = try data.wallets().first(where: { $0.watch.id == id }) else {
            return Self.error("no wallet \(JSONValue.quoted(id)) in the config", status: .notFound)
        }
        return Self.json(WalletViews.detail(wallet, prices: try data.prices()))
    }

    /// `POST /api/wallets/{id}/next` (`watcher wallets next`), guarded like the account writes; an optional JSON
    /// body `{"label": "..."}`.
    func nextAddress(_ request: Request, _ id: String) async -> Response {
        if let refusal = writes.refusal(request) { return refusal }
        guard let next = sources.nextWalletAddress else {
            return Self.error("this server does not hand out addresses", status: .methodNotAllowed)
        }
        guard sources.watches.contains(where: { $0.kind == .wallet && $0.id == id }) else {
            return Self.error("no wallet \(JSONValue.quoted(id)) in the config", status: .notFound)
        }
        // Every refusal comes before `next`: a refused request uses up no receive index.
        let label: String?
        do throws(WriteBody.Refusal) {
            label = try WriteBody.label(
                try await WriteBody.object(request, shape: #"{"label": "..."}"#, optional: true)
            )
        } catch {
            return error.response
        }
        do {
            return Self.json(try await next(id, label), status: .created)
        } catch {
            return Self.error("the address could not be recorded", status: .internalServerError)
        }
    }

    func events(_ request: Request) throws -> Response {
        guard let limit = Self.limit(request, fallback: 50) else {
            return Self.error("limit must be an integer from 1 to 1000", status: .badRequest)
        }
        let type = request.uri.queryParameters.get("type").map { String($0) }.flatMap { $0.isEmpty ? nil : $0 }
        return Self.json(.array(try data.events(type: type, limit: limit).map(\.json)))
    }
}
