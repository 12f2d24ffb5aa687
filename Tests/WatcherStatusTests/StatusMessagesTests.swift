import NIOHTTP1
import Testing
import WatcherTesting

/// The status server's answers say what went wrong: 405 with `Allow` for a known path and a wrong method, 413 with
/// the limit for a body too large, and `/ui/` errors that show the id decoded (and escaped).
@Suite(.timeLimit(.minutes(2)))
struct StatusMessagesTests {
    @Test func aKnownPathWithAWrongMethodGets405WithAllow() async throws {
        try await StatusHarness.with { server in
            let put = try await server.request("/api/accounts", method: .PUT, body: "{}")
            #expect(put.status == 405 && put.headers.first(name: "Allow") == "GET, POST", "\(put)")
            #expect(put.body.contains("PUT is not allowed here"))
            let get = try await server.request("/api/accounts/bc1qxyz")
            #expect(get.status == 405 && get.headers.first(name: "Allow") == "DELETE")
            let health = try await server.request("/healthz", method: .POST)
            #expect(health.status == 405 && health.headers.first(name: "Allow") == "GET, HEAD")
            let stream = try await server.request("/api/events/stream", method: .DELETE)
            #expect(stream.status == 405 && stream.headers.first(name: "Allow") == "GET")
            let page = try await server.request("/ui/blocks", method: .POST)
            #expect(page.status == 405)
            // An unknown path is still 404.
            #expect(try await server.request("/api/nothing", method: .PUT).status == 404)
        }
    }

    @Test func anOversizedBodyGets413WithTheLimit() async throws {
        try await StatusHarness.with { server in
            let label = String(repeating: "x", count: 70_000)
            let body = #"{"address": "bc1qxyz", "label": "\#(label)"}"#
            let post = try await server.request("/api/accounts", method: .POST, body: body)
            #expect(post.status == 413, "\(post.status) \(post.body.prefix(200))")
            #expect(post.body.contains("larger than 16384 bytes (16 KiB)"), "\(post.body)")
            let small = try await server.request("/api/accounts", method: .POST, body: "[1]")
            #expect(small.status == 400 && small.body.contains("expected a JSON object"))
        }
    }

    @Test func uiErrorsShowTheIdDecoded() async throws {
        try await StatusHarness.with { server in
            let page = try await server.request("/ui/blocks/%3Cscript%3E")
            #expect(page.status == 200)
            #expect(page.body.contains("&quot;&lt;script&gt;&quot; is not a block height"), "\(page.body)")
            #expect(!page.body.contains("%3C") && !page.body.contains("<script>"))
            let api = try await server.request("/api/blocks/%3Cscript%3E")
            #expect(api.status == 400 && api.body.contains(#"invalid block \"<script>\""#), "\(api.body)")
        }
    }
}
