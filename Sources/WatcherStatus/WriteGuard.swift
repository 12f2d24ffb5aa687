import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Who may add and remove accounts. Writes from a page of another origin are refused (the browser sends
/// `Origin`). With a `--http-token`, writes need it as `Authorization: Bearer <token>`. Without one they are
/// refused beyond loopback, and on loopback from a page served under a name other than a loopback address
/// (a DNS rebinding attack looks like that).
struct WriteGuard: Sendable {
    /// The token writes need, if any.
    let token: String?
    /// Whether the server listens on loopback only.
    let loopback: Bool
    /// The address the server listens on: a `Host` naming it exactly counts as loopback.
    var bound: String?

    /// `nil` when the write may go ahead, else the refusal.
    func refusal(_ request: Request) -> Response? {
        let origin = request.headers[.origin]
        if let origin, !sameOrigin(origin, authority: request.head.authority) {
            return APIRoutes.error("writes from another origin (\(origin)) are refused", status: .forbidden)
        }
        if let token {
            guard let presented = request.headers[.authorization].flatMap(Self.bearer), Self.equal(presented, token)
            else {
                var response = APIRoutes.error(
                    "writes need the token: Authorization: Bearer <token>",
                    status: .unauthorized
                )
                response.headers[.wwwAuthenticate] = "Bearer"
                return response
            }
            return nil
        }
        guard loopback else {
            return APIRoutes.error(
                "this server listens beyond loopback: writes need the daemon to be started with --http-token",
                status: .forbidden
            )
        }
        // A page served under another name that resolves to this machine (DNS rebinding, or a proxy) is its
        // own origin to the browser: only a token lets its writes through. Both the page's origin and the host
        // the request was sent to must be loopback addresses, parsed, not matched by prefix.
        let originHost = origin.map { URL(string: $0)?.host ?? $0 }
        for host in [originHost, request.head.authority].compactMap({ $0 })
        where !StatusServer.isLoopback(host, bound: bound) {
            let shown = StatusServer.hostName(host) ?? host
            return APIRoutes.error(
                "writes from a page served as \(shown) need the daemon to be started with --http-token",
                status: .forbidden
            )
        }
        return nil
    }

    /// The credentials of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 9110 11.1), the
    /// token is not. `nil` for another scheme.
    static func bearer(_ header: String) -> String? {
        let parts = header.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// `Origin: http://host:port` names the same host and port the request was sent to.
    func sameOrigin(_ origin: String, authority: String?) -> Bool {
        guard let authority, let url = URL(string: origin), let host = url.host else { return false }
        let port = url.port.map { ":\($0)" } ?? ""
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return authority.lowercased() == (bracketed + port).lowercased()
    }

    /// Compares digests, so the time taken says nothing about the token.
    static func equal(_ a: String, _ b: String) -> Bool {
        SHA256.hash(data: Data(a.utf8)) == SHA256.hash(data: Data(b.utf8))
    }
}
