import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Who may add and remove accounts. Writes from a page of another origin are refused (the browser sends
/// `Origin`); bound beyond loopback, writes need the `--http-token` as `Authorization: Bearer <token>`, and are
/// refused when no token was given.
struct WriteGuard: Sendable {
    /// The token writes need, if any.
    let token: String?
    /// Whether the server listens on loopback only.
    let loopback: Bool

    /// Whether `host` binds to this machine only.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `nil` when the write may go ahead, else the refusal.
    func refusal(_ request: Request) -> Response? {
        if let origin = request.headers[.origin], !sameOrigin(origin, authority: request.head.authority) {
            return APIRoutes.error("writes from another origin (\(origin)) are refused", status: .forbidden)
        }
        guard let token else {
            if loopback { return nil }
            return APIRoutes.error(
                "this server listens beyond loopback: writes need the daemon to be started with --http-token",
                status: .forbidden
            )
        }
        let prefix = "Bearer "
        guard let header = request.headers[.authorization], header.hasPrefix(prefix),
            Self.equal(String(header.dropFirst(prefix.count)), token)
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
