import NIOHTTP1
import Testing
import WatcherTesting

/// The write guard over real HTTP: a page served under a rebinding name cannot write without the token, loopback
/// literals and `localhost` still can; the token's scheme is case-insensitive.
@Suite(.timeLimit(.minutes(2)))
struct WriteGuardHTTPTests {
    static let body = #"{"address": "bc1qnotanaddress"}"#

    @Test func rebindingNamesAreRefusedWithoutTheToken() async throws {
        try await StatusHarness.with { server in
            let port = server.port
            for name in ["127.0.0.1.attacker.example", "evil.localhost", "localhost.evil.com", "rebound.example"] {
                let page = [("Host", "\(name):\(port)"), ("Origin", "http://\(name):\(port)")]
                let post = try await server.request("/api/accounts", method: .POST, headers: page, body: Self.body)
                #expect(post.status == 403 && post.body.contains("served as \(name)"), "\(name): \(post)")
                let delete = try await server.request("/api/accounts/x", method: .DELETE, headers: page)
                #expect(delete.status == 403, "\(name): \(delete)")
                // Without an Origin (a client that is not a browser) the Host alone decides.
                let bare = try await server.request(
                    "/api/accounts",
                    method: .POST,
                    headers: [("Host", "\(name):\(port)")],
                    body: Self.body
                )
                #expect(bare.status == 403, "\(name): \(bare)")
            }
            for name in ["127.0.0.1", "127.0.0.2", "localhost", "[::1]"] {
                let page = [("Host", "\(name):\(port)"), ("Origin", "http://\(name):\(port)")]
                let post = try await server.request("/api/accounts", method: .POST, headers: page, body: Self.body)
                #expect(post.status == 400 && post.body.contains("invalid address"), "\(name): \(post)")
            }
        }
    }

    @Test func theTokenLetsARebindingNameWriteWhateverTheSchemeCase() async throws {
        try await StatusHarness.with(token: "t0ken") { server in
            let page = [("Host", "127.0.0.1.attacker.example:\(server.port)")]
            let none = try await server.request("/api/accounts", method: .POST, headers: page, body: Self.body)
            #expect(none.status == 401)
            for scheme in ["Bearer", "bearer", "BEARER"] {
                let headers = page + [("Authorization", "\(scheme) t0ken")]
                let post = try await server.request("/api/accounts", method: .POST, headers: headers, body: Self.body)
                #expect(post.status == 400, "\(scheme): \(post)")
            }
            let wrong = try await server.request(
                "/api/accounts",
                method: .POST,
                headers: [("Authorization", "bearer T0KEN")],
                body: Self.body
            )
            #expect(wrong.status == 401)
        }
    }
}
