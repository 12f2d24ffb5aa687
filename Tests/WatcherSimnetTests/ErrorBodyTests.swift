import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// Errors and odd requests get each real server's answer, byte for byte where a real body is on file,
/// and never crash the simnet.
@Suite("Error bodies and bad input")
struct ErrorBodyTests {
    @Test func blockbookErrorsMatchTheRealBodies() async throws {
        try await Simnet.with { simnet in
            let missing = try await SimnetHarness.get(simnet, "/api/v2/address/")
            #expect(missing.status == 400)
            #expect(
                try missing.json().normalized
                    == (try JSONValue.parse(SimnetHarness.fixture("blockbook/error-missing-address.json"))).normalized
            )

            let txid = "1232e48aeabdd9b75def7b48d756ba304713c2aba7b522bf9dbc893fc4231b07"
            let notFound = try await SimnetHarness.get(simnet, "/api/v2/tx/\(txid)")
            #expect(notFound.status == 400)
            #expect(
                try notFound.json().normalized
                    == (try JSONValue.parse(SimnetHarness.fixture("blockbook/error-tx-not-found.json"))).normalized
            )
            #expect(notFound.header("Content-Type") == "application/json; charset=utf-8")

            let invalid = try await SimnetHarness.get(simnet, "/api/v2/address/bc1qinvalid")
            #expect(invalid.status == 400)
            #expect(try invalid.json()["error"]?.stringValue?.hasPrefix("Invalid address, ") == true)

            for path in [
                "/api/v2/block/99999999", "/api/v2/block/zz", "/api/v2/block/" + String(repeating: "0", count: 64),
            ] {
                let block = try await SimnetHarness.get(simnet, path)
                #expect(block.status == 400 && block.text == #"{"error":"Block not found"}"#, "\(path)")
            }
        }
    }

    @Test func blockbookQuirksAreMimicked() async throws {
        try await Simnet.with { simnet in
            let above = try await SimnetHarness.get(simnet, "/api/v2/block-index/900000")
            #expect(above.status == 200 && above.text == #"{"blockHash":""}"#)
            for path in ["/api/v2", "/api/status", "/api/v2/nonsense/path", "/api/v1/whatever"] {
                let answer = try await SimnetHarness.get(simnet, path)
                #expect(
                    try answer.status == 200 && (answer.json()["blockbook"]) != nil,
                    "\(path) serves the status JSON"
                )
            }
            // Missing trailing slashes redirect (AsyncHTTPClient follows them).
            let status = try await SimnetHarness.get(simnet, "/api")
            #expect(try status.status == 200 && (status.json()["backend"]) != nil)
            let tickers = try await SimnetHarness.get(simnet, "/api/v2/tickers?currency=usd")
            #expect(try tickers.json()["rates"]?["usd"] != nil)
        }
    }

    @Test func rawaddrAndPriceErrorsArePlainText() async throws {
        try await Simnet.with { simnet in
            let invalidBody = try SimnetHarness.fixture("rawaddr/error_invalid_bitcoin_address.txt")
            for path in [
                "/rawaddr/xyz", "/rawaddr/", "/multiaddr?active=bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4|nope",
                "/multiaddr",
            ] {
                let answer = try await SimnetHarness.get(simnet, path)
                #expect(answer.status == 500 && answer.body == invalidBody, "\(path)")
                #expect(answer.header("Content-Type")?.hasPrefix("text/plain") == true)
            }
            let coinbase = try await SimnetHarness.get(simnet, "/v2/prices/BTC-XYZ/spot")
            #expect(try coinbase.status == 404 && (coinbase.json()["errors"]?[0]?["id"]?.stringValue) == "not_found")
            #expect(try await SimnetHarness.get(simnet, "/nowhere").status == 404)
        }
    }

    @Test func hostileInputNeverCrashes() async throws {
        try await Simnet.with { simnet in
            let paths = [
                "/api/v2/address/%ZZ%00", "/api/v2/address/\(String(repeating: "1", count: 5000))",
                "/api/v2/block/800001?page=-5", "/api/v2/block/800001?page=999999999999999999999",
                "/api/v2/address/bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?page=0&pageSize=-1",
                "/api/v2/address/bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?details=%F0%9F%92%A5",
                "/rawaddr/bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?limit=-1&offset=-9",
                "/multiaddr?active=%7C%7C&n=abc", "/v1/bpi/currentprice/.json", "/v2/prices//spot",
                "/api/v2/tx/%2e%2e%2f", "/api/v2/block-index/-1", "/api/v2/block/-9223372036854775808",
                "/api/v2/block/800001?page=9223372036854775807", "/api/v2/block-index/9223372036854775807",
                "/api/v2/address/bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?page=9223372036854775807&pageSize=1000",
            ]
            for path in paths {
                let answer = try await SimnetHarness.get(simnet, path)
                #expect((200..<600).contains(answer.status), "\(path)")
            }
            // Still serving afterwards.
            #expect(try await SimnetHarness.get(simnet, "/api/").status == 200)
        }
    }
}
