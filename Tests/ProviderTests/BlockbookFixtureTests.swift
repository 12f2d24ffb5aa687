import BlockbookAdapter
import Foundation
import Testing
import WatcherCore
import WatcherTesting

/// Every real Blockbook fixture for the endpoints the adapter uses, served over loopback HTTP and decoded
/// through the real transport and the whole adapter.
@Suite("Blockbook fixtures")
struct BlockbookFixtureTests {
    /// The adapter under test, its instance the loopback server (the trailing slash is trimmed by the adapter).
    static func blockbook(_ server: FixtureServer) -> BlockbookProvider {
        BlockbookProvider(id: "bb", baseURL: server.baseURL + "/", http: server.http)
    }

    @Test func statusGivesHealthAndTipFromTheBlockIndex() async throws {
        let answers = [
            "/api/": try Fixture.answer("blockbook/status.json"),
            "/api/v2/block-index/860730": try Fixture.answer("blockbook/block-index.json"),
        ]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            let health = try await bb.health()
            #expect(health == ProviderHealth(isHealthy: true, bestHeight: 860_730))
            let tip = try await bb.tip()
            #expect(
                tip
                    == BlockRef(
                        height: 860_730,
                        hash: "0000000000000000000b7b8574bc6fd285825ec2dbcbeca149121fc05b0c828c"
                    )
            )
        }
    }

    @Test(arguments: [
        ("\"initialSync\": false", "\"initialSync\": true", "initial sync"),
        ("\"inSync\": true", "\"inSync\": false", "out of sync"),
        ("\"chain\": \"main\",", "\"chain\": \"main\", \"error\": \"loading block index\",", "backend error"),
    ])
    func syncingInstanceIsUnhealthyAndNoSourceOfTruth(from: String, to: String, reason: String) async throws {
        let answers = [
            "/api/": try Fixture.edited("blockbook/status.json") { $0.replacingOccurrences(of: from, with: to) }
        ]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            let health = try await bb.health()
            #expect(!health.isHealthy)
            #expect(health.reason?.contains(reason) == true, "\(String(describing: health.reason))")
            await #expect(throws: ProviderError.unavailable(provider: "bb", status: nil, detail: health.reason)) {
                _ = try await bb.tip()
            }
        }
    }

    @Test func fakeChainBlockWithEmptyHeaderFields() async throws {
        let answers = ["/api/v2/block/225493": try Fixture.answer("blockbook/block-225493-page1.json")]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            let header = try await bb.block(.height(225_493))
            #expect(header.hash == "0000000076fbbed90fd75b0e18856aa35baa984e9c9d444cf746ad85e94e2997")
            #expect(header.time == Date(timeIntervalSince1970: 1_521_515_026))
            #expect(header.merkleRoot == "" && header.nonce == 0 && header.txCount == 2 && header.previousHash == nil)
            let page = try await bb.blockTransactions(.height(225_493), page: 1)
            #expect(page.totalPages == 1 && page.transactions.count == 2)
            #expect(
                page.transactions[1].outputs.first
                    == TxEndpoint(address: "mv9uLThosiEnGRbVPS7Vhyw6VssbVRsiAw", valueSat: 1_234_567_890_123)
            )
            #expect(page.transactions.allSatisfy { $0.blockHeight == 225_493 && $0.feeSat == 0 })
        }
    }

    @Test func dogecoinBlockWithCoinbaseInputWithoutAddress() async throws {
        let hash = "760f8ed32894ccce9c1ea11c8a019cadaa82bcb434b25c30102dd7e43f326217"
        let answers = ["/api/v2/block/\(hash)": try Fixture.answer("blockbook/block-2648059-page1.json")]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            let header = try await bb.block(.hash(hash))
            #expect(header.height == 2_648_059 && header.nonce == 0 && header.txCount == 2)
            #expect(header.merkleRoot == "6783f6083788c4f69b8af23bd2e4a194cf36ac34d590dfd97e510fe7aebc72c8")
            #expect(header.previousHash == "786a1f9f38493d32fd9f9c104d748490a070bc74a83809103bcadd93ae98288f")
            let page = try await bb.blockTransactions(.hash(hash), page: 1)
            #expect(page.transactions.first?.inputs == [TxEndpoint(address: nil, valueSat: 0)])
            #expect(page.transactions.first?.outputs.first?.valueSat == 1_000_100_000_000)
        }
    }

    @Test func blockMismatchIsInvalid() async throws {
        let answers = ["/api/v2/block/225494": try Fixture.answer("blockbook/block-225493-page1.json")]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            await #expect(throws: ProviderError.self) { _ = try await bb.block(.height(225_494)) }
        }
    }

    @Test func addressSummaries() async throws {
        /// The summary of `address` decoded from `fixture`.
        func summary(_ address: String, _ fixture: String) async throws -> AddressSummary {
            let answers = ["/api/v2/address/\(address)": try Fixture.answer(fixture)]
            return try await FixtureServer.with(answers, adapter: Self.blockbook) { try await $0.address(address) }
        }
        let testchain = "mv9uLThosiEnGRbVPS7Vhyw6VssbVRsiAw"
        let basic = try await summary(testchain, "blockbook/address-basic.json")
        // details=basic omits the unconfirmed balance: unknown, not zero.
        #expect(
            basic
                == AddressSummary(
                    address: testchain,
                    balanceSat: 0,
                    totalReceivedSat: 1_234_567_890_123,
                    totalSentSat: 1_234_567_890_123,
                    txCount: 2,
                    unconfirmedBalanceSat: nil,
                    unconfirmedTxCount: 0
                )
        )
        let bech32 = "bc1q0wd209cv5k9pd9mhk7nspacywcj038xxdhnt5u"
        let txids = try await summary(bech32, "blockbook/address-txids.json")
        #expect(txids.balanceSat == 4_225_100 && txids.unconfirmedBalanceSat == 0 && txids.txCount == 2)
        let other = try await summary(testchain, "blockbook/address-txids-testchain.json")
        #expect(other.totalSentSat == 1_234_567_890_123 && other.unconfirmedTxCount == 0)
    }

    @Test func historyWithNetEffects() async throws {
        let address = "mv9uLThosiEnGRbVPS7Vhyw6VssbVRsiAw"
        let answers = ["/api/v2/address/\(address)": try Fixture.answer("blockbook/address-txs.json")]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            let history = try await bb.addressTransactions(address, limit: 10, after: nil)
            #expect(history.map(\.deltaSat) == [-1_234_567_890_123, 1_234_567_890_123])
            #expect(history.map(\.blockHeight) == [225_494, 225_493])
            let newer = try await bb.addressTransactions(address, limit: 10, after: history[1].txid)
            #expect(newer.map(\.txid) == [history[0].txid])
        }
    }

    @Test func litecoinHistorySumsToTheBalance() async throws {
        let address = "ltc1qpm594ntjq6ayqjngf6t9td2dxtey9d7985eept"
        let answers = ["/api/v2/address/\(address)": try Fixture.answer("blockbook/address-txs-ltc-mainnet.json")]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            let history = try await bb.addressTransactions(address, limit: 100, after: nil)
            #expect(history.count == 19)
            #expect(history.reduce(Int64(0)) { $0 + $1.deltaSat } == 1_688_078)
            #expect(history.allSatisfy { $0.blockHeight != nil && $0.time != nil })
        }
    }

    @Test func transactions() async throws {
        let confirmed = "8c1e3dec662d1f2a5e322ccef5eca263f98eb16723c6f990be0c88c1db113fb1"
        let mempool = "73b1ad97194e426031e5c692869de2d83dc2ff6033fc6f0ab5514345f92eaf0d"
        let testchain = "05e2e48aeabdd9b75def7b48d756ba304713c2aba7b522bf9dbc893fc4231b07"
        let answers = [
            "/api/v2/tx/\(confirmed)": try Fixture.answer("blockbook/tx.json"),
            "/api/v2/tx/\(mempool)": try Fixture.answer("blockbook/tx-unconfirmed.json"),
            "/api/v2/tx/\(testchain)": try Fixture.answer("blockbook/tx-testchain.json"),
        ]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            let tx = try await bb.transaction(confirmed)
            #expect(tx.blockHeight == 860_730 && tx.feeSat == 43_200 && tx.confirmations(tipHeight: 860_735) == 6)
            #expect(
                tx.inputs == [TxEndpoint(address: "bc1qmgwnfjlda4ns3g6g3yz74w6scnn9yu2ts82yyc", valueSat: 10_106_300)]
            )
            #expect(tx.outputs.map(\.valueSat) == [175_000, 9_888_100])
            let unconfirmed = try await bb.transaction(mempool)
            #expect(
                unconfirmed.blockHeight == nil && unconfirmed.blockHash == nil
                    && unconfirmed.confirmations(tipHeight: 860_735) == 0
            )
            #expect(unconfirmed.time == Date(timeIntervalSince1970: 1_725_959_035) && unconfirmed.feeSat == 3_885)
            #expect(try await bb.transaction(testchain).feeSat == 876)
        }
    }

    @Test func tickersAsQuotes() async throws {
        let tickers = ["/api/v2/tickers/": try Fixture.answer("blockbook/tickers.json")]
        let quotes = try await FixtureServer.with(tickers, adapter: Self.blockbook) {
            try await $0.quotes(for: ["usd", "GBP", "EUR"])
        }
        let time = Date(timeIntervalSince1970: 1_574_380_800)
        #expect(
            quotes == [
                PriceQuote(currency: "USD", price: Decimal(79_145) / 10, time: time, provider: "bb"),
                PriceQuote(currency: "EUR", price: Decimal(71_341) / 10, time: time, provider: "bb"),
            ]
        )
        let usdOnly = ["/api/v2/tickers/": try Fixture.answer("blockbook/tickers-usd.json")]
        let one = try await FixtureServer.with(usdOnly, adapter: Self.blockbook) {
            try await $0.quotes(for: ["USD", "EUR"])
        }
        #expect(one.map(\.currency) == ["USD"])
    }

    @Test func errorBodies() async throws {
        let txid = "1232e48aeabdd9b75def7b48d756ba304713c2aba7b522bf9dbc893fc4231b07"
        let answers = [
            "/api/v2/tx/\(txid)": try Fixture.answer("blockbook/error-tx-not-found.json", status: 400),
            "/api/v2/address/": try Fixture.answer("blockbook/error-missing-address.json", status: 400),
            "/api/": try Fixture.answer("blockbook/status.json"),
            "/api/v2/block-index/860730": try Fixture.answer(
                "blockbook/error-rate-limit-429.json",
                status: 429,
                headers: [("Retry-After", "30")]
            ),
            "/api/v2/address/bc1qstatus": try Fixture.answer("blockbook/status.json"),
        ]
        try await FixtureServer.with(answers, adapter: Self.blockbook) { bb in
            await #expect(throws: ProviderError.notFound(provider: "bb", what: "transaction \(txid)")) {
                _ = try await bb.transaction(txid)
            }
            await #expect(throws: ProviderError.badRequest(provider: "bb", detail: "Missing address")) {
                _ = try await bb.address("")
            }
            await #expect(throws: ProviderError.rateLimited(provider: "bb", retryAfter: .seconds(30))) {
                _ = try await bb.tip()
            }
            // Blockbook answers unknown paths with 200 and its status JSON: a shape error, never data.
            do {
                _ = try await bb.address("bc1qstatus")
                Issue.record("the status page was taken for an address")
            } catch ProviderError.invalidResponse(_, let detail) {
                #expect(detail.contains("status page"))
            }
        }
    }
}
