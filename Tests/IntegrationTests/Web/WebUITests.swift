import AsyncHTTPClient
import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherRules
import WatcherSimnet
import WatcherTesting

/// The web UI in a real browser (Selenium driving Debian's chromium through chromium-driver, installed by
/// `make test-deps`), and the JSON API checked against `docs/openapi.yaml`, both against a running daemon.
/// `WATCHER_SCREENSHOTS=docs/images` keeps the browser's screenshots (how the README's are made).
@Suite(.serialized)
struct BrowserWebUITests {
    /// A valid address the simnet never saw.
    static let unused = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    @Test func browserDrivesBothTabs() async throws {
        try await WebDaemon.with(seed: 21) { daemon, client in
            // Twenty blocks while the daemon runs: a full Blocks tab.
            let mined = try await daemon.simnet.mine(count: 20)
            // Twenty stored blocks up to the last one mined: the daemon may hold twenty older ones already, and a
            // page read before it caught up would see its rows replaced under the script's clicks.
            try await eventually("twenty stored blocks up to the last one mined") {
                let blocks = (try? JSONValue.parse(try await daemon.get(client, "/api/blocks").body))?.arrayValue
                return blocks?.count == 20 && blocks?.first?["height"] == .number("\(mined[19].height)")
            }
            var arguments = [
                "--base", daemon.base, "--simnet", daemon.simnet.baseURL, "--followed", daemon.followed,
                "--funded", try await DaemonHarness.funded(daemon), "--unused", Self.unused,
            ]
            if let directory = ProcessInfo.processInfo.environment["WATCHER_SCREENSHOTS"] {
                arguments += ["--screenshots", directory]
            }
            let run = try await WebDaemon.python("browser-test.py", arguments)
            #expect(run.status == 0, "the browser test failed (make test-deps installs chromium):\n\(run.output)")
        }
    }

    @Test func answersMatchTheOpenAPIDocument() async throws {
        try await WebDaemon.with(seed: 22) { daemon, client in
            let funded = try await DaemonHarness.funded(daemon)
            let top = try #require(
                try JSONValue.parse(try await daemon.get(client, "/api/blocks?limit=1").body)[0]
            )
            let height = try #require(top["height"].flatMap { if case .number(let n) = $0 { n } else { nil } })
            let hash = try #require(top["hash"]?.stringValue)
            let stored = try JSONValue.parse(try await daemon.get(client, "/api/blocks?limit=1000").body)
            let lowest = try #require(
                stored.arrayValue?.compactMap { block in
                    block["height"].flatMap { if case .number(let n) = $0 { Int(n) } else { nil } }
                }.min()
            )
            #expect(lowest > 800_000, "the daemon stored the whole chain: no block to fetch through the providers")
            func request(_ method: String, _ path: String, _ body: String? = nil, status: Int? = nil) -> String {
                let body = body.map { #", "body": \#($0)"# } ?? ""
                let status = status.map { #", "status": \#($0)"# } ?? ""
                return #"{"method": "\#(method)", "path": "\#(path)"\#(body)\#(status)}"#
            }
            let requestID = PaymentRequest.id(
                chain: "btc",
                wallet: "shop",
                address: try WalletHarness.address(.receive, 2)
            )
            let requests = [
                request("GET", "/api/blocks", status: 200),
                request("GET", "/api/blocks?limit=2", status: 200),
                request("GET", "/api/blocks?limit=0", status: 400),
                request("GET", "/api/blocks/\(height)", status: 200),
                request("GET", "/api/blocks/\(hash)", status: 200),
                // Not stored (the daemon stores blocks from its start on): fetched through the providers.
                request("GET", "/api/blocks/\(lowest - 1)", status: 200),
                request("GET", "/api/blocks/99999999", status: 404),
                request("GET", "/api/blocks/not-a-block", status: 400),
                request("GET", "/api/accounts", status: 200),
                request("POST", "/api/accounts", #"{"address": "bc1qnotanaddress"}"#, status: 400),
                request("POST", "/api/accounts", #"{"address": "\#(Self.unused)"}"#, status: 422),
                request("POST", "/api/accounts", #"{"address": "\#(funded)", "label": "Spare"}"#, status: 201),
                request("GET", "/api/accounts", status: 200),
                request("DELETE", "/api/accounts/\(funded)", status: 200),
                request("DELETE", "/api/accounts/\(funded)", status: 404),
                request("DELETE", "/api/accounts/\(daemon.followed)", status: 409),
                request("GET", "/api/wallets", status: 200),
                request("GET", "/api/wallets/shop", status: 200),
                request("GET", "/api/wallets/nope", status: 404),
                request("POST", "/api/wallets/shop/next", #"{"label": "Order 9"}"#, status: 201),
                request("POST", "/api/wallets/shop/next", status: 201),
                request("POST", "/api/wallets/shop/next", #""not an object""#, status: 400),
                // Refused before an index is used: `lastIssued` below stays 1.
                request("POST", "/api/wallets/shop/next", #"{"label": ["Order", 10]}"#, status: 400),
                request(
                    "POST",
                    "/api/wallets/shop/next",
                    #"{"label": "\#(String(repeating: "x", count: 101))"}"#,
                    status: 400
                ),
                request("POST", "/api/wallets/nope/next", status: 404),
                request("GET", "/api/wallets/shop", status: 200),
                // A payment request takes the next receive index (2).
                request("GET", "/api/requests", status: 200),
                request("POST", "/api/requests", #"{"wallet": "shop", "sat": 40000, "orderId": "web-1"}"#, status: 201),
                request("POST", "/api/requests", #"{"wallet": "shop", "sat": 5000, "orderId": "web-1"}"#, status: 200),
                request("POST", "/api/requests", #"{"wallet": "shop", "sat": 1}"#, status: 400),
                request("GET", "/api/requests?status=open", status: 200),
                request("GET", "/api/requests?status=done", status: 400),
                request("GET", "/api/requests/web-1", status: 200),
                request("GET", "/api/requests/req_nothing", status: 404),
                request("POST", "/api/requests/\(requestID)/mark", #"{"status": "paid"}"#, status: 400),
                request("POST", "/api/requests/\(requestID)/cancel", #"{"note": "test"}"#, status: 200),
                request("POST", "/api/requests/\(requestID)/mark", #"{"status": "invalid"}"#, status: 200),
                request("POST", "/api/requests/\(requestID)/cancel", status: 409),
                request("POST", "/api/requests/req_nothing/cancel", status: 404),
                request("GET", "/api/prices", status: 200),
                request("GET", "/api/events", status: 200),
                request("GET", "/api/events?type=block.new&limit=5", status: 200),
                request("GET", "/api/events?limit=x", status: 400),
            ]
            let spec = WebDaemon.repository.appendingPathComponent("docs/openapi.yaml").path
            let check = try await WebDaemon.python(
                "openapi-check.py",
                [spec, daemon.base],
                input: "[" + requests.joined(separator: ",\n") + "]"
            )
            #expect(check.status == 0, "\(check.output)")

            // `/api/accounts` lists exactly what `watcher accounts list --json` lists. Prices move while the daemon
            // runs, so the two reads are compared until a pair falls between two price updates.
            var api = JSONValue.null
            var cli = JSONValue.null
            try await eventually(timeout: .seconds(60), "/api/accounts to equal accounts list --json") {
                let listed = try await DaemonHarness.watcher([
                    "accounts", "list", "--json", "--config", "\(daemon.data)/watcher.json",
                ])
                guard listed.status == 0 else { throw TimedOut(what: "accounts list: \(listed.stderr)") }
                cli = try JSONValue.parse(listed.stdout)
                api = try JSONValue.parse(try await daemon.get(client, "/api/accounts").body)
                return cli == api
            }
            #expect(api[0]?["address"]?.stringValue == daemon.followed)
            // `/api/wallets` lists exactly what `watcher wallets list --json` lists; the two addresses handed out
            // above are recorded (indices 0 and 1, the first with its label), and the request's (2).
            // The running daemon may move a wallet's scan between the two reads: compare until they agree.
            try await eventually(timeout: .seconds(60), "/api/wallets to equal wallets list --json") {
                let wallets = try await DaemonHarness.watcher([
                    "wallets", "list", "--json", "--config", "\(daemon.data)/watcher.json",
                ])
                guard wallets.status == 0 else { throw TimedOut(what: "wallets list: \(wallets.stderr)") }
                return try JSONValue.parse(wallets.stdout)
                    == JSONValue.parse(try await daemon.get(client, "/api/wallets").body)
            }
            let shop = try JSONValue.parse(try await daemon.get(client, "/api/wallets/shop").body)
            #expect(shop["receive"]?["lastIssued"] == .number("2"))
            #expect(shop["issued"]?[0]?["label"] == .string("Order 9"))
            #expect(api[0]?["label"]?.stringValue == "Savings")
            #expect(api[0]?["balanceBtc"] != nil && api[0]?["fiat"]?["GBP"] != nil)
        }
    }
}
