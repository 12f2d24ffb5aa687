import Foundation
import HTTPTypes
import WatcherCore

/// Where a 3xx answer sends a request, as browsers and AsyncHTTPClient do it: 301, 302 and 303 become a `GET`
/// without a body, 307 and 308 keep the method and body. Only `http` and `https` targets are followed.
enum Redirect {
    /// The request to send after `response`, or `nil` when it is not a redirect that can be followed.
    static func next(_ spec: HTTPRequestSpec, after response: HTTPResponseData) -> HTTPRequestSpec? {
        guard [301, 302, 303, 307, 308].contains(response.status.code),
            let location = response.headerFields[.location],
            let base = URL(string: spec.url),
            let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var next = spec
        next.url = target.absoluteString
        if response.status.code <= 303, spec.method != .head {
            next.method = .get
            next.body = nil
        }
        return next
    }
}
