import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherJSON
import WatcherTestSupport
import WatcherTesting

/// `POST /api/wallets/{id}/next` reads its body by the rules of `POST /api/accounts` (413 past 16 KiB, 400 for a
/// label that is not a string or is over 100 characters), other methods get 405 with `Allow: POST`, and a refused
/// request uses up no receive index; `watcher wallets next --label` refuses the same label with exit 2. A real
/// `watcher run --http` process over a real store; `next` needs no provider, so the provider answers nothing.
@Suite(.timeLimit(.minutes(3)))
struct WalletNextRulesTests {
    static func config(_ data: String) throws -> String {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [{"id": "shop", "type": "wallet", "providers": ["bb"], "strategy": "scan",
                          "descriptor": "\(WalletHarness.descriptor)", "gap": 3}],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        let path = "\(data)/watcher.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func send(_ client: HTTPClient, _ url: String, _ method: HTTPMethod, body: String? = nil)
        async throws -> (status: Int, body: String, allow: String?)
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes), response.headers.first(name: "Allow"))
    }

    @Test func refusedRequestsAreRefusedBeforeAnIndexIsUsed() async throws {
        let directory = try TemporaryDirectory("wallet-next")
        defer { directory.remove() }
        let data = directory.path
        let config = try Self.config(data)
        let daemon = try await StatusDaemon.start(config: config, data: data)
        let url = daemon.base + "/api/wallets/shop/next"
        let status = try await daemon.whileRunning { client in
            let huge = #"{"label": ""# + String(repeating: "x", count: 70_000) + #""}"#
            let tooLarge = try await Self.send(client, url, .POST, body: huge)
            #expect(tooLarge.status == 413 && tooLarge.body.contains("larger than 16384 bytes"), "\(tooLarge)")
            let list = try await Self.send(client, url, .POST, body: #"{"label": ["Order", 1]}"#)
            #expect(list.status == 400 && list.body.contains("label must be a string, got an array"), "\(list)")
            let long = try await Self.send(
                client,
                url,
                .POST,
                body: #"{"label": "\#(String(repeating: "é", count: 200))"}"#
            )
            #expect(
                long.status == 400 && long.body.contains("the label has 200 characters; the limit is 100"),
                "\(long)"
            )
            for method in [HTTPMethod.GET, .PUT, .DELETE] {
                let refused = try await Self.send(client, url, method)
                #expect(refused.status == 405 && refused.allow == "POST", "\(method): \(refused)")
            }
            let handed = try await Self.send(client, url, .POST, body: #"{"label": "Order 1"}"#)
            #expect(handed.status == 201, "\(handed)")
            let first = try JSONValue.parse(handed.body)
            #expect(first["index"] == .number("0") && first["label"] == .string("Order 1"), "\(handed.body)")

            let cli = try await WatcherProcess.run([
                "wallets", "next", "shop", "--label", String(repeating: "a", count: 101), "--config", config,
            ])
            #expect(cli.status == 2, "\(cli.stderr)")
            #expect(cli.stderr.contains("--label: the label has 101 characters; the limit is 100"), "\(cli.stderr)")
            let next = try await WatcherProcess.run(["wallets", "next", "shop", "--json", "--config", config])
            #expect(next.status == 0, "\(next.stderr)")
            #expect(try JSONValue.parse(next.stdout)["index"] == .number("1"), "\(next.stdout)")
        }
        #expect(status == 0)
    }
}
