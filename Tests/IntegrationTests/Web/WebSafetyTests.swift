import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// The status server is safe by default: writes from another origin are refused, beyond loopback they need the
/// `--http-token`, error pages are plain, nothing shows a provider URL; and the event stream resumes from the log.
@Suite(.serialized)
struct WebSafetyTests {
    static let invalid = #"{"address": "bc1qnotanaddress"}"#

    @Test func loopbackRefusesOtherOriginsAndStreamsTheLog() async throws {
        try await WebDaemon.with(seed: 23) { daemon, client in
            let evil = [("Origin", "http://evil.example")]
            let foreign = try await daemon.get(
                client,
                "/api/accounts",
                method: .POST,
                headers: evil,
                body: Self.invalid
            )
            #expect(foreign.status == 403 && foreign.body.contains("another origin"), "\(foreign.body)")
            let removal = try await daemon.get(
                client,
                "/api/accounts/\(daemon.followed)",
                method: .DELETE,
                headers: evil
            )
            #expect(removal.status == 403)
            // DNS rebinding: a page served as another name that resolves here is same-origin to the browser.
            let port = daemon.base.split(separator: ":").last.map(String.init) ?? ""
            let rebound = try await daemon.get(
                client,
                "/api/accounts",
                method: .POST,
                headers: [("Host", "rebound.example:\(port)"), ("Origin", "http://rebound.example:\(port)")],
                body: Self.invalid
            )
            #expect(rebound.status == 403 && rebound.body.contains("served as rebound.example"), "\(rebound.body)")
            // The page's own origin (and a client sending none) gets through to the address check.
            let own = try await daemon.get(
                client,
                "/api/accounts",
                method: .POST,
                headers: [("Origin", daemon.base)],
                body: Self.invalid
            )
            #expect(own.status == 400 && own.body.contains("invalid address"), "\(own.body)")
            #expect(try await daemon.get(client, "/api/accounts", method: .POST, body: Self.invalid).status == 400)

            // Errors are one plain line; no page or answer shows the provider's URL.
            let missing = try await daemon.get(client, "/no/such/page")
            #expect(missing.status == 404 && missing.body == "404 Not Found\n")
            #expect(missing.headers.first(name: "Content-Type")?.hasPrefix("text/plain") == true)
            for path in ["/", "/ui/prices", "/ui/accounts", "/api/prices", "/api/events", "/ui/events"] {
                let page = try await daemon.get(client, path)
                #expect(page.status == 200 && !page.body.contains(daemon.simnet.baseURL), "\(path) shows a URL")
            }

            // A label is the user's text: escaped wherever the page shows it.
            let funded = try await DaemonHarness.funded(daemon)
            let label = #"<b id=\"x\">Spare</b>"#
            let added = try await daemon.get(
                client,
                "/api/accounts",
                method: .POST,
                body: #"{"address": "\#(funded)", "label": "\#(label)"}"#
            )
            #expect(added.status == 201, "\(added.body)")
            for path in ["/", "/ui/accounts", "/ui/accounts/\(funded)"] {
                let page = try await daemon.get(client, path).body
                #expect(
                    page.contains("&lt;b id=&quot;x&quot;&gt;Spare&lt;/b&gt;") && !page.contains("<b id"),
                    "\(path)"
                )
            }
            #expect(try await daemon.get(client, "/api/accounts/\(funded)", method: .DELETE).status == 200)

            try await Self.streamResumes(daemon, client)
        }
    }

    /// `Last-Event-ID: N` replays the log after N; a block mined while connected arrives as `block.new`.
    static func streamResumes(_ daemon: WebDaemon, _ client: HTTPClient) async throws {
        _ = try await daemon.simnet.mine(count: 3)
        try await eventually("three events in the log") {
            (try? JSONValue.parse(try await daemon.get(client, "/api/events?limit=3").body))?[2] != nil
        }
        let newest = try #require(try JSONValue.parse(try await daemon.get(client, "/api/events?limit=3").body)[2])
        let seq = try #require(newest["seq"].flatMap { if case .number(let n) = $0 { UInt64(n) } else { nil } })
        var request = HTTPClientRequest(url: daemon.base + "/api/events/stream")
        request.headers.add(name: "Last-Event-ID", value: "\(seq)")
        let response = try await client.execute(request, timeout: .seconds(60))
        #expect(response.headers.first(name: "Content-Type") == "text/event-stream")
        var text = ""
        var mined = false
        for try await chunk in response.body {
            text += String(buffer: chunk)
            if !mined, text.contains("id: \(seq + 2)\n") {
                // The two events after `seq` came first, in order, from the log.
                let ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.prefix(2)
                #expect(ids == ["id: \(seq + 1)", "id: \(seq + 2)"])
                _ = try await daemon.simnet.mine(count: 1)
                mined = true
            }
            if mined, text.contains(#""type":"block.new""#), text.hasSuffix("\n\n") { break }
        }
        #expect(mined && text.contains(#""type":"block.new""#), "\(text.suffix(500))")
    }

    @Test func beyondLoopbackWritesNeedTheToken() async throws {
        try await WebDaemon.with(seed: 24, bind: "0.0.0.0", arguments: ["--http-token", "s3cret-t0ken"]) {
            daemon,
            client in
            let none = try await daemon.get(client, "/api/accounts", method: .POST, body: Self.invalid)
            #expect(none.status == 401 && none.headers.first(name: "WWW-Authenticate") == "Bearer")
            let wrong = try await daemon.get(
                client,
                "/api/accounts",
                method: .POST,
                headers: [("Authorization", "Bearer guess")],
                body: Self.invalid
            )
            #expect(wrong.status == 401)
            let right = [("Authorization", "Bearer s3cret-t0ken")]
            let allowed = try await daemon.get(
                client,
                "/api/accounts",
                method: .POST,
                headers: right,
                body: Self.invalid
            )
            #expect(allowed.status == 400, "\(allowed.body)")
            let foreign = try await daemon.get(
                client,
                "/api/accounts",
                method: .POST,
                headers: right + [("Origin", "http://evil.example")],
                body: Self.invalid
            )
            #expect(foreign.status == 403)
            let page = try await daemon.get(client, "/")
            #expect(page.status == 200 && !page.body.contains("s3cret-t0ken"))
            let log = try String(contentsOfFile: daemon.log, encoding: .utf8)
            #expect(log.contains("listens beyond this machine") && log.contains("needs the --http-token"), "\(log)")
        }
    }

    @Test func beyondLoopbackWithoutATokenRefusesWrites() async throws {
        try await WebDaemon.with(seed: 25, bind: "0.0.0.0") { daemon, client in
            let write = try await daemon.get(client, "/api/accounts", method: .POST, body: Self.invalid)
            #expect(write.status == 403 && write.body.contains("--http-token"), "\(write.body)")
            #expect(try await daemon.get(client, "/api/accounts").status == 200)
            let log = try String(contentsOfFile: daemon.log, encoding: .utf8)
            #expect(log.contains("over HTTP is refused"), "\(log)")
        }
    }
}
