import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// The `/control/` API over HTTP, and that its effects show on every provider surface.
@Suite("Control API")
struct ControlAPITests {
    @Test func mineTxAndAddressesOverHTTP() async throws {
        try await Simnet.with { simnet in
            let mined = try await SimnetHarness.post(simnet, "/control/mine", json: #"{"count":2}"#).json()
            let blocks = try #require(mined["blocks"]?.arrayValue)
            #expect(blocks.map { $0["height"]?.int } == [800_006, 800_007])
            #expect(blocks.last?["hash"]?.stringValue == (await simnet.tip()).hash)

            let target = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
            let paid = try await SimnetHarness.post(
                simnet,
                "/control/tx",
                json: #"{"to":"\#(target)","amountSat":150000}"#
            )
            let txid = try #require(try paid.json()["txid"]?.stringValue)
            let pending = try await SimnetHarness.get(simnet, "/api/v2/tx/\(txid)").json()
            #expect(pending["blockHeight"]?.int == -1 && pending["confirmations"]?.int == 0)
            let unconfirmed = try await SimnetHarness.get(simnet, "/api/v2/address/\(target)?details=tokens").json()
            #expect(
                unconfirmed["unconfirmedBalance"]?.stringValue == "150000" && unconfirmed["balance"]?.stringValue == "0"
            )
            let raw = try await SimnetHarness.get(simnet, "/rawaddr/\(target)").json()
            #expect(raw["final_balance"]?.int == 150_000 && raw["txs"]?[0]?["block_height"] == .null)

            try await simnet.mine()
            let confirmed = try await SimnetHarness.get(simnet, "/api/v2/tx/\(txid)").json()
            #expect(confirmed["blockHeight"]?.int == 800_008 && confirmed["confirmations"]?.int == 1)

            let truths = try await SimnetHarness.get(simnet, "/control/addresses").json()
            let row = try #require(truths["addresses"]?.arrayValue?.first { $0["address"]?.stringValue == target })
            #expect(row["confirmedBalanceSat"]?.int == 150_000 && row["funded"] == .bool(false))
            #expect(row["confirmedTxCount"]?.int == 1 && row["unconfirmedTxCount"]?.int == 0)
            #expect(truths["tip"]?["height"]?.int == 800_008)
            #expect(truths["addresses"]?.arrayValue?.count == 25)
        }
    }

    @Test func reorgOverHTTP() async throws {
        try await Simnet.with { simnet in
            let answer = try await SimnetHarness.post(simnet, "/control/reorg", json: #"{"depth":2}"#).json()
            let rows = try #require(answer["replaced"]?.arrayValue)
            #expect(rows.map { $0["height"]?.int } == [800_004, 800_005])
            #expect(rows.allSatisfy { $0["oldHash"]?.stringValue != $0["newHash"]?.stringValue })
            let tooDeep = try await SimnetHarness.post(simnet, "/control/reorg", json: #"{"depth":6}"#)
            #expect(tooDeep.status == 400)
        }
    }

    @Test func pricesShowOnEveryFeed() async throws {
        let clock = ManualClock().timeSource(epoch: Date(timeIntervalSince1970: 1_633_002_480))  // as in the fixture
        try await Simnet.with(SimnetConfiguration(seed: 42, clock: clock)) { simnet in
            let set = try await SimnetHarness.post(
                simnet,
                "/control/price",
                json: #"{"USD": 42970.9319, "GBP": 31987.6477, "EUR": 37136.1669}"#
            )
            #expect(try set.status == 200 && (set.json()["USD"]?.number) == 42970.9319)

            // With the fixture's time and prices the CoinDesk body matches the real one byte for byte.
            let coindesk = try await SimnetHarness.get(simnet, "/v1/bpi/currentprice.json")
            #expect(try coindesk.body == (SimnetHarness.fixture("price/coindesk_currentprice_2021-09-30.json")))

            let gbp = try await SimnetHarness.get(simnet, "/v1/bpi/currentprice/gbp.json").json()
            #expect(gbp["bpi"]?["GBP"]?["rate"]?.stringValue == "31,987.6477" && gbp["chartName"] == nil)
            #expect(gbp["bpi"]?["USD"] != nil && gbp["bpi"]?["GBP"]?["symbol"] == nil)
            let unknown = try await SimnetHarness.get(simnet, "/v1/bpi/currentprice/XYZ.json")
            #expect(unknown.status == 404)
            #expect(try unknown.body == (SimnetHarness.fixture("price/coindesk_error_currency_not_found.txt")))

            let spot = try await SimnetHarness.get(simnet, "/v2/prices/BTC-EUR/spot").json()
            #expect(
                spot["data"]?["amount"]?.stringValue == "37136.17" && spot["data"]?["currency"]?.stringValue == "EUR"
            )
            let tickers = try await SimnetHarness.get(simnet, "/api/v2/tickers/?currency=gbp").json()
            #expect(tickers["rates"]?["gbp"]?.number == 31987.65 && tickers["ts"]?.int == 1_633_002_480)
            let missing = try await SimnetHarness.get(simnet, "/api/v2/tickers/?currency=xyz").json()
            #expect(missing["rates"]?["xyz"]?.number == -1)

            // Mining moves the random walk.
            try await simnet.mine(count: 3)
            #expect(await simnet.prices()[.usd] != 42970.9319)
        }
    }

    @Test func statsCountEveryFamilyAndEndpoint() async throws {
        try await Simnet.with { simnet in
            let funded = try #require(await simnet.addresses().first).address
            for path in [
                "/api/", "/api/v2/address/\(funded)", "/api/v2/address/\(funded)?details=basic", "/rawaddr/\(funded)",
                "/v1/bpi/currentprice.json", "/v2/prices/BTC-USD/spot", "/api/v2/nonsense",
            ] {
                _ = try await SimnetHarness.get(simnet, path)
            }
            let stats = try await SimnetHarness.get(simnet, "/control/stats").json()
            let blockbook = try #require(stats["families"]?["blockbook"])
            #expect(
                blockbook["requests"]?.int == 4 && blockbook["rateLimited"]?.int == 0 && blockbook["faults"]?.int == 0
            )
            #expect(blockbook["endpoints"]?["/api/v2/address"]?.int == 2 && blockbook["endpoints"]?["/api/"]?.int == 2)
            #expect(stats["families"]?["rawaddr"]?["endpoints"]?["/rawaddr"]?.int == 1)
            #expect(stats["families"]?["coindesk"]?["requests"]?.int == 1)
            #expect(stats["families"]?["coinbase"]?["requests"]?.int == 1)
            let log = try #require(stats["log"]?.arrayValue)
            #expect(log.count == 7 && log.allSatisfy { $0["status"]?.int == 200 && $0["retryAfter"] == nil })
            #expect(log.first?["path"]?.stringValue == "/api/" && log.first?["family"]?.stringValue == "blockbook")

            _ = try await SimnetHarness.post(simnet, "/control/stats/reset", json: "")
            #expect(await simnet.stats().log.isEmpty)
        }
    }

    @Test func badControlRequestsAreRefusedNotFatal() async throws {
        try await Simnet.with { simnet in
            let cases: [(String, String, Int)] = [
                ("/control/tx", #"{"to":"bc1qnotanaddress","amountSat":1000}"#, 400),
                ("/control/tx", #"{"to":"1BoatSLRHtKNngkdXEeobR76b53LETtpyT","amountSat":-5}"#, 400),
                ("/control/tx", #"{"to":"1BoatSLRHtKNngkdXEeobR76b53LETtpyT","amountSat":2000000000000000}"#, 400),
                ("/control/mine", #"{"count":0}"#, 400),
                ("/control/mine", "[1,2,3]", 400),
                ("/control/price", #"{"JPY": 1}"#, 400),
                ("/control/price", #"{"USD": -1}"#, 400),
                ("/control/ratelimit", #"{"family":"blockbook","requests":5,"per":"soon"}"#, 400),
                ("/control/teleport", "{}", 404),
            ]
            for (path, body, status) in cases {
                let answer = try await SimnetHarness.post(simnet, path, json: body)
                #expect(answer.status == status, "\(path) \(body): \(answer.text)")
                #expect(try answer.json()["error"]?.stringValue != nil)
            }
            #expect(try await SimnetHarness.get(simnet, "/control/mine").status == 405)
            #expect(try await SimnetHarness.get(simnet, "/control/tip").status == 200)
        }
    }

    @Test func blockIntervalMinesOnItsOwn() async throws {
        let configuration = SimnetConfiguration(seed: 42, blockInterval: .milliseconds(50))
        try await Simnet.with(configuration) { simnet in
            try await eventually(timeout: .seconds(10), "eight blocks mined on the interval") {
                await simnet.tip().height >= 800_008
            }
        }
    }
}
