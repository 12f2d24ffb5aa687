import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherQR

/// The web UI: the page at `/`, its script and style, and the HTML fragments it loads (`/ui/*`). Served by the
/// binary itself: no CDN, nothing fetched from elsewhere, so it works offline.
struct WebRoutes: Sendable {
    let data: StatusData

    func add(to router: Router<StatusRequestContext>) {
        router.get("/") { _, _ in try Self.html(WebPage.html(blocks: self.blocks(), accounts: self.accounts())) }
        router.get("ui/app.js") { _, _ in Self.asset(WebScript.source, type: "text/javascript; charset=utf-8") }
        router.get("ui/app.css") { _, _ in Self.asset(WebPage.style, type: "text/css; charset=utf-8") }
        router.get("ui/blocks") { _, _ in try Self.html(self.blocks()) }
        router.get("ui/blocks/:id") { _, context in await Self.html(self.block(context.parameters.get("id") ?? "")) }
        router.get("ui/accounts") { _, _ in try Self.html(self.accounts()) }
        router.get("ui/accounts/:address") { _, context in
            try Self.html(self.account(context.parameters.get("address") ?? ""))
        }
        router.get("ui/wallets") { _, _ in try Self.html(WebFragments.wallets(self.data.wallets())) }
        router.get("ui/wallets/:id") { _, context in try Self.html(self.wallet(context.parameters.get("id") ?? "")) }
        router.get("ui/requests") { _, _ in try Self.html(RequestFragments.list(self.data.requests().0)) }
        router.get("ui/requests/:id") { _, context in try Self.html(self.request(context.parameters.get("id") ?? "")) }
        router.get("ui/requests/:id/qr.png") { request, context in
            try self.qr(context.parameters.get("id") ?? "", png: true, form: request.uri.queryParameters.get("form"))
        }
        router.get("ui/requests/:id/qr.svg") { request, context in
            try self.qr(context.parameters.get("id") ?? "", png: false, form: request.uri.queryParameters.get("form"))
        }
        router.get("ui/prices") { _, _ in try Self.html(WebFragments.prices(self.data.prices())) }
        router.get("ui/events") { request, _ in
            let type = request.uri.queryParameters.get("type").map { String($0) }.flatMap { $0.isEmpty ? nil : $0 }
            return try Self.html(WebFragments.events(self.data.events(type: type, limit: 100)))
        }
        MethodGuard.allow(
            [
                "/", "ui/app.js", "ui/app.css", "ui/blocks", "ui/blocks/:id", "ui/accounts", "ui/accounts/:address",
                "ui/prices", "ui/events", "ui/requests", "ui/requests/:id", "ui/requests/:id/qr.png",
                "ui/requests/:id/qr.svg",
            ],
            [.get]
        ).add(to: router)
    }

    static let securityPolicy =
        "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'"

    static func html(_ text: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: securityPolicy, .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    func blocks() throws -> String { WebFragments.blocks(try data.blocks(limit: 20)) }

    func accounts() throws -> String { WebFragments.accounts(try data.accounts()) }

    func block(_ id: String) async -> String {
        let id = id.removingPercentEncoding ?? id
        guard let blockID = BlockID(id) else {
            return WebFragments.error("\"\(id)\" is not a block height or a 64-hex block hash")
        }
        do {
            guard let header = try await data.block(blockID) else {
                return WebFragments.error("Block \(id) is not stored.")
            }
            return WebFragments.block(header)
        } catch let error as ProviderError {
            if case .notFound = error { return WebFragments.error("Block \(id) was not found.") }
            return WebFragments.error("The providers could not answer: \(error.summary)")
        } catch {
            return WebFragments.error("Block \(id) could not be read.")
        }
    }

    func wallet(_ id: String) throws -> String {
        guard let wallet = try data.wallets().first(where: { $0.watch.id == id }) else {
            return WebFragments.error("No wallet \(id) in the config.")
        }
        return WebFragments.wallet(wallet)
    }

    func request(_ id: String) throws -> String {
        let (requests, tips) = try data.requests()
        guard let request = requests.first(where: { $0.id == id }) else {
            return WebFragments.error("No request \(id).")
        }
        return RequestFragments.detail(request, tipHeight: tips[request.chain])
    }

    /// A request's QR code, as PNG or SVG; 404 for an unknown request.
    /// A request's QR code: `form` absent or `uri`, the exact URI; `uppercase`, its uppercase form.
    func qr(_ id: String, png: Bool, form: String?) throws -> Response {
        guard let request = try data.requests().0.first(where: { $0.id == id }) else {
            return APIRoutes.error("no request \(JSONValue.quoted(id))", status: .notFound)
        }
        guard form == nil || form == "uri" || form == "uppercase" else {
            return APIRoutes.error(
                "form must be uri or uppercase, not \(JSONValue.quoted(form ?? ""))",
                status: .badRequest
            )
        }
        let code = try RequestFragments.qr(request, uppercase: form == "uppercase")
        let body = png ? ByteBuffer(bytes: code.png()) : ByteBuffer(string: code.svg())
        return Response(
            status: .ok,
            headers: [
                .contentType: png ? "image/png" : "image/svg+xml", .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: body)
        )
    }

    func account(_ address: String) throws -> String {
        let address = address.removingPercentEncoding ?? address
        guard let detail = try data.account(address) else {
            return WebFragments.error("\(address) is not followed.")
        }
        return WebFragments.account(detail)
    }
}
