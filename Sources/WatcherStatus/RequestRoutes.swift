import Foundation
import HTTPTypes
import Hummingbird
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherRules
import WatcherStorage

/// `/api/requests`: payment requests (`docs/requests.md`). Reads come from the store; writes go through the
/// daemon (``StatusServer/Sources/RequestWrites``) behind the same write guard and body rules as the account
/// writes. Every refusal comes before the write: a refused request uses up no address.
struct RequestRoutes: Sendable {
    let data: StatusData
    let writes: WriteGuard

    func add(to router: Router<StatusRequestContext>) {
        router.get("api/requests") { request, _ in try self.list(request) }
        router.post("api/requests") { request, _ in await self.create(request) }
        router.get("api/requests/:id") { _, context in try self.show(context.parameters.get("id") ?? "") }
        router.post("api/requests/:id/cancel") { request, context in
            await self.change(request, context.parameters.get("id") ?? "", mark: false)
        }
        router.post("api/requests/:id/mark") { request, context in
            await self.change(request, context.parameters.get("id") ?? "", mark: true)
        }
        MethodGuard.allow(["api/requests"], [.get, .post]).add(to: router)
        MethodGuard.allow(["api/requests/:id"], [.get]).add(to: router)
        MethodGuard.allow(["api/requests/:id/cancel", "api/requests/:id/mark"], [.post]).add(to: router)
    }

    /// `GET /api/requests[?status=…]`: exactly what `watcher requests list --json` prints.
    func list(_ request: Request) throws -> Response {
        var wanted: PaymentRequest.Status?
        if let text = request.uri.queryParameters.get("status").map({ String($0) }), !text.isEmpty {
            guard let status = PaymentRequest.Status(rawValue: text) else {
                let known = PaymentRequest.Status.allCases.map(\.rawValue).joined(separator: ", ")
                return APIRoutes.error("unknown status \(JSONValue.quoted(text)); known: \(known)", status: .badRequest)
            }
            wanted = status
        }
        let (requests, tips) = try data.requests()
        let shown = requests.filter { wanted == nil || $0.status == wanted }
        return APIRoutes.json(.array(shown.map { .object(RequestEvents.json($0, tipHeight: tips[$0.chain])) }))
    }

    /// `GET /api/requests/{id}` (the request id or the order id).
    func show(_ id: String) throws -> Response {
        let (requests, tips) = try data.requests()
        guard let found = requests.first(where: { $0.id == id }) ?? requests.first(where: { $0.orderId == id }) else {
            return APIRoutes.error("no request \(JSONValue.quoted(id))", status: .notFound)
        }
        return APIRoutes.json(.object(RequestEvents.json(found, tipHeight: tips[found.chain])))
    }

    static let createShape =
        #"{"wallet": "...", "sat": 40000} or {"wallet": "...", "amount": "25.00", "currency": "EUR"}, "#
        + #"with optional "label", "orderId", "expires""#

    /// `POST /api/requests`: 201 with a new request, 200 with the order id's existing one.
    func create(_ request: Request) async -> Response {
        if let refusal = writes.refusal(request) { return refusal }
        guard let create = data.sources.requestWrites?.create else {
            return APIRoutes.error("this server does not create requests", status: .methodNotAllowed)
        }
        let order: RequestOrder
        do throws(WriteBody.Refusal) {
            guard let object = try await WriteBody.object(request, shape: Self.createShape) else {
                return APIRoutes.error("expected a JSON object \(Self.createShape)", status: .badRequest)
            }
            order = try RequestForm.order(object, watches: data.watches)
        } catch {
            return error.response
        }
        do {
            let made = try await create(order)
            var response = APIRoutes.json(made.request, status: made.isNew ? .created : .ok)
            if let warning = made.warning, let name = HTTPField.Name("Warning") {
                response.headers[name] = "199 watcher \"\(warning)\""
            }
            return response
        } catch {
            return Self.refusal(error)
                ?? APIRoutes.error("the request could not be stored", status: .internalServerError)
        }
    }

    /// `POST /api/requests/{id}/cancel` (`{"note"}` optional) and `…/mark` (`{"status": "settled"|"invalid"}`).
    func change(_ request: Request, _ id: String, mark: Bool) async -> Response {
        if let refusal = writes.refusal(request) { return refusal }
        guard let writes = data.sources.requestWrites else {
            return APIRoutes.error("this server does not change requests", status: .methodNotAllowed)
        }
        let shape = mark ? #"{"status": "settled" or "invalid", "note": "..."}"# : #"{"note": "..."}"#
        let note: String?
        var status: PaymentRequest.Status?
        do throws(WriteBody.Refusal) {
            let object = try await WriteBody.object(request, shape: shape, optional: !mark)
            note = try RequestForm.text(object, "note", limit: 500)
            if mark {
                let text = try RequestForm.text(object, "status", limit: 20)
                guard let text, let parsed = PaymentRequest.Status(rawValue: text),
                    parsed == .settled || parsed == .invalid
                else {
                    return APIRoutes.error("status must be \"settled\" or \"invalid\"", status: .badRequest)
                }
                status = parsed
            }
        } catch {
            return error.response
        }
        do {
            if let status { return APIRoutes.json(try await writes.mark(id, status, note)) }
            return APIRoutes.json(try await writes.cancel(id, note))
        } catch {
            return Self.refusal(error)
                ?? APIRoutes.error("the request could not be changed", status: .internalServerError)
        }
    }

    /// The answer to a user's mistake, `nil` for anything else.
    static func refusal(_ error: any Error) -> Response? {
        switch error {
        case let refusal as RequestOrder.Refusal:
            APIRoutes.error(refusal.description, status: .badRequest)
        case let refusal as RequestActions.Refusal:
            APIRoutes.error(refusal.description, status: .conflict)
        case let missing as RequestActions.NotFound:
            APIRoutes.error(missing.description, status: .notFound)
        default:
            nil
        }
    }
}
