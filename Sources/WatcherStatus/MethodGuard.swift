import HTTPTypes
import Hummingbird

/// 405 Method Not Allowed, with `Allow`, for a known path asked with a method it does not serve (`PUT
/// /api/accounts`), instead of the 404 an unknown path gets.
struct MethodGuard: Sendable {
    /// The paths, as the router writes them.
    let paths: [String]
    /// The methods they serve.
    let methods: [HTTPRequest.Method]

    /// The methods a 405 is answered for: every common one not served (HEAD only where GET is not served either).
    static let common: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch]

    /// `paths` serve `methods`.
    static func allow(_ paths: [String], _ methods: [HTTPRequest.Method]) -> MethodGuard {
        MethodGuard(paths: paths, methods: methods)
    }

    /// The value of `Allow`.
    var allowHeader: String { methods.map(\.rawValue).joined(separator: ", ") }

    /// Registers the 405 answers.
    func add<Context: RequestContext>(to router: Router<Context>) {
        let allow = allowHeader
        let refused = Self.common.filter { method in
            !methods.contains(method) && !(method == .head && methods.contains(.get))
        }
        for path in paths {
            for method in refused {
                router.on(RouterPath(path), method: method) { _, _ in
                    var response = APIRoutes.error(
                        "\(method.rawValue) is not allowed here; allowed: \(allow)",
                        status: .methodNotAllowed
                    )
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}
