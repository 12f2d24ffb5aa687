import BlockbookAdapter
import CoinDeskAdapter
import Foundation
import HTTPTypes
import JSONPriceAdapter
import RawAddrAdapter
import Testing
import WatcherCore
import WatcherHTTP
import WatcherSimnet
import WatcherTesting

/// The decoder half of shape parity (the key and type half is `WatcherSimnetTests/ShapeParityTests`): for each kind
/// of real body the simnet imitates, the real fixture and the live simnet body, fetched over loopback with the real
/// transport, both decode with the decoder the adapter uses, and the simnet's decodes to the simnet's truth.
///
/// Stand-ins, as in the shape test: no real Blockbook `details=tokens` body is in the fixtures (for a Bitcoin
/// address it is the basic body plus the unconfirmed fields), so the basic fixture stands in for it; no real
/// `/latestblock` body is either, so multiaddr's `info.latest_block`, the same object, stands in for it.
@Suite("Simnet bodies decode like real ones")
struct SimnetDecoderParityTests {
    /// Prices with two decimals, so every feed (two or four places) renders them exactly, and a frozen clock on a
    /// whole minute, so every feed's time is known. Prices move only when blocks are mined.
    static let prices: [PriceCurrency: Decimal] = [
        .usd: Decimal(4_321_012) / 100, .gbp: Decimal(3_456_789) / 100, .eur: Decimal(3_987_654) / 100,
    ]
    static let now: Double = 1_700_000_040

    static var configuration: SimnetConfiguration {
        SimnetConfiguration(
            seed: 42,
            initialPrices: prices,
            clock: ManualClock().timeSource(epoch: Date(timeIntervalSince1970: now))
        )
    }

    let blockbook = BlockbookDecoder(provider: "bb")
    let rawaddr = RawAddrDecoder(provider: "bci")
    let coinDesk = CoinDeskDecoder(provider: "cd")

    /// Runs `body` with a simnet on loopback and a ``ProviderHTTP`` at its root over the real transport; stops both
    /// whether `body` returns or throws.
    func withSimnet(_ body: (Simnet, ProviderHTTP) async throws -> Void) async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await FixtureServer.withTransport { transport in
                let http = ProviderHTTP(
                    provider: "simnet",
                    baseURL: simnet.baseURL,
                    http: transport,
                    options: .standard
                )
                try await body(simnet, http)
            }
        }
    }

    /// A real fixture's JSON, read as the adapters read bodies.
    func real(_ fixture: String) throws -> ProviderHTTP.JSONNode {
        try ProviderHTTP.json(try Fixture.bytes(fixture), provider: "real")
    }

    /// The simnet's JSON at `path` (a 200 is required), read as the adapters read bodies.
    func live(
        _ http: ProviderHTTP,
        _ path: String,
        query: [(String, String)] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProviderHTTP.JSONNode {
        try await live(http, url: http.baseURL + path + ProviderHTTP.queryString(query), sourceLocation: sourceLocation)
    }

    func live(
        _ http: ProviderHTTP,
        url: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProviderHTTP.JSONNode {
        let response = try await http.get(url: url)
        try #require(
            response.status == 200,
            "\(url) answered \(response.status): \(ProviderHTTP.snippet(response.body))",
            sourceLocation: sourceLocation
        )
        return try http.json(response)
    }

    /// Every field the decoder supplied agrees with the truth; the confirmed balance must be known.
    func expectAgrees(
        _ summary: AddressSummary,
        _ truth: AddressTruth,
        _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(summary.balanceSat == truth.confirmedBalanceSat, "\(label): balance", sourceLocation: sourceLocation)
        func field(_ name: String, _ value: Int64?, _ expected: Int64) {
            guard let value else { return }
            #expect(value == expected, "\(label): \(name) \(value) != \(expected)", sourceLocation: sourceLocation)
        }
        field("totalReceivedSat", summary.totalReceivedSat, truth.totalReceivedSat)
        field("totalSentSat", summary.totalSentSat, truth.totalSentSat)
        field("txCount", summary.txCount.map(Int64.init), Int64(truth.confirmedTxCount))
        field("unconfirmedBalanceSat", summary.unconfirmedBalanceSat, truth.unconfirmedBalanceSat)
        field("unconfirmedTxCount", summary.unconfirmedTxCount.map(Int64.init), Int64(truth.unconfirmedTxCount))
    }

    /// A history page is the newest part of the true history, with the same net effects.
    func expectAgrees(
        _ history: [AddressTx],
        _ truth: [AddressTx],
        _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!history.isEmpty, "\(label): an empty page", sourceLocation: sourceLocation)
        let expected = Array(truth.prefix(history.count))
        #expect(history.map(\.txid) == expected.map(\.txid), "\(label): txids", sourceLocation: sourceLocation)
        #expect(history.map(\.deltaSat) == expected.map(\.deltaSat), "\(label): deltas", sourceLocation: sourceLocation)
        #expect(
            history.map(\.blockHeight) == expected.map(\.blockHeight),
            "\(label): heights",
            sourceLocation: sourceLocation
        )
    }

    /// The simnet's true prices as the quotes a feed should give.
    func expectedQuotes(_ simnet: Simnet, provider: String) async -> [PriceQuote] {
        let prices = await simnet.prices()
        return PriceCurrency.allCases.map { currency in
            PriceQuote(
                currency: currency.rawValue,
                price: prices[currency] ?? 0,
                time: Date(timeIntervalSince1970: Self.now),
                provider: provider
            )
        }
    }

    // MARK: Blockbook

    @Test func blockbookStatusAndBlockIndex() async throws {
        #expect(try blockbook.health(try real("blockbook/status.json")).bestHeight == 860_730)
        let realHash = try real("blockbook/block-index.json").required("blockHash").string()
        #expect(realHash == "0000000000000000000b7b8574bc6fd285825ec2dbcbeca149121fc05b0c828c")
        try await withSimnet { simnet, http in
            let tip = await simnet.tip()
            let health = try blockbook.health(try await live(http, "/api/"))
            #expect(health == ProviderHealth(isHealthy: true, bestHeight: tip.height))
            // What the adapter reads of the block index for its tip.
            let index = try await live(http, "/api/v2/block-index/\(tip.height)")
            #expect(try index.required("blockHash").string() == tip.hash)
        }
    }

    @Test func blockbookBlock() async throws {
        let fake = try real("blockbook/block-225493-page1.json")
        #expect(try blockbook.header(fake, matching: .height(225_493)).txCount == 2)
        #expect(try blockbook.transactionPage(fake, requested: 1).transactions.count == 2)
        let doge = try real("blockbook/block-2648059-page1.json")
        let dogeHash = "760f8ed32894ccce9c1ea11c8a019cadaa82bcb434b25c30102dd7e43f326217"
        #expect(try blockbook.header(doge, matching: .hash(dogeHash)).height == 2_648_059)
        #expect(try blockbook.transactionPage(doge, requested: 1).transactions.count == 2)
        try await withSimnet { simnet, http in
            try await simnet.mine(count: 4)
            let truth = await ChainTruth(simnet)
            // A block below the tip, as in the shape test: it has a next block and spent outputs.
            let height = truth.tip.height - 2
            let block = try #require(truth.chain.block(height: height))
            let expected = try #require(truth.header(height: height))
            for id in [BlockID.height(height), .hash(block.hash)] {
                let node = try await live(http, "/api/v2/block/\(id)")
                let header = try blockbook.header(node, matching: id)
                #expect(header.hash == expected.hash && header.height == height && header.time == expected.time)
                #expect(header.txCount == block.txCount && header.previousHash == expected.previousHash)
                let page = try blockbook.transactionPage(node, requested: 1)
                #expect(page.totalPages == 1 && page.transactions.map(\.txid) == block.txids)
                for transaction in page.transactions {
                    let expected = try #require(truth.transaction(transaction.txid))
                    #expect(transaction.outputs == expected.outputs, "\(transaction.txid) outputs")
                    #expect(transaction.inputs == expected.inputs, "\(transaction.txid) inputs")
                }
            }
        }
    }

    @Test func blockbookTransactions() async throws {
        for fixture in ["blockbook/tx.json", "blockbook/tx-testchain.json"] {
            #expect(try blockbook.transaction(try real(fixture)).blockHeight != nil, "\(fixture)")
        }
        #expect(try blockbook.transaction(try real("blockbook/tx-unconfirmed.json")).blockHeight == nil)
        try await withSimnet { simnet, http in
            try await simnet.mine(count: 2)
            let funded = try #require(await simnet.addresses().first)
            let payment = try await simnet.pay(to: funded.address, amountSat: 10_000)
            let truth = await ChainTruth(simnet)
            let block = try #require(truth.chain.block(height: truth.tip.height - 1))
            // The coinbase, a payment in a block, and one in the mempool.
            for txid in [block.txids[0], block.txids[1], payment] {
                let expected = try #require(truth.transaction(txid))
                let transaction = try blockbook.transaction(try await live(http, "/api/v2/tx/\(txid)"))
                #expect(transaction.txid == txid && transaction.blockHeight == expected.blockHeight, "\(txid)")
                #expect(transaction.blockHash == expected.blockHash, "\(txid) block hash")
                #expect(transaction.inputs == expected.inputs, "\(txid) inputs")
                #expect(transaction.outputs == expected.outputs, "\(txid) outputs")
                #expect(transaction.feeSat == expected.feeSat, "\(txid) fee")
            }
        }
    }

    @Test func blockbookAddressAtEachDetailsLevel() async throws {
        let testchain = "mv9uLThosiEnGRbVPS7Vhyw6VssbVRsiAw"
        // address-basic.json is also the stand-in for details=tokens (see the suite's note).
        let summaries = [
            ("blockbook/address-basic.json", testchain),
            ("blockbook/address-txids.json", "bc1q0wd209cv5k9pd9mhk7nspacywcj038xxdhnt5u"),
            ("blockbook/address-txids-testchain.json", testchain),
            ("blockbook/address-txs.json", testchain),
            ("blockbook/address-txs-ltc-mainnet.json", "ltc1qpm594ntjq6ayqjngf6t9td2dxtey9d7985eept"),
        ]
        for (fixture, address) in summaries {
            #expect(try blockbook.summary(try real(fixture), address: address).balanceSat != nil, "\(fixture)")
        }
        #expect(
            try blockbook.history(try real("blockbook/address-txs.json"), address: testchain).transactions.count == 2
        )
        let ltc = "ltc1qpm594ntjq6ayqjngf6t9td2dxtey9d7985eept"
        let ltcHistory = try blockbook.history(try real("blockbook/address-txs-ltc-mainnet.json"), address: ltc)
        #expect(ltcHistory.transactions.count == 19)

        try await withSimnet { simnet, http in
            try await simnet.mine(count: 3)
            let truth = await ChainTruth(simnet)
            let busiest = try #require(truth.busiestAddresses.first)
            let path = "/api/v2/address/\(ProviderHTTP.escape(busiest.address))"
            for details in ["basic", "tokens", "txids"] {
                let node = try await live(http, path, query: [("details", details)])
                expectAgrees(try blockbook.summary(node, address: busiest.address), busiest, "details=\(details)")
            }
            // As the adapter asks for history.
            let node = try await live(http, path, query: [("details", "txs"), ("page", "1"), ("pageSize", "50")])
            expectAgrees(try blockbook.summary(node, address: busiest.address), busiest, "details=txs")
            let page = try blockbook.history(node, address: busiest.address)
            #expect(page.page == 1)
            expectAgrees(page.transactions, truth.history(of: busiest.address), "details=txs history")
        }
    }

    @Test func blockbookTickers() async throws {
        let time = Date(timeIntervalSince1970: 1_574_380_800)
        let all = try blockbook.quotes(try real("blockbook/tickers.json"), currencies: ["USD", "GBP", "EUR"])
        #expect(all.map(\.currency) == ["USD", "EUR"] && all.allSatisfy { $0.time == time })
        let usd = try blockbook.quotes(try real("blockbook/tickers-usd.json"), currencies: ["USD", "GBP", "EUR"])
        #expect(usd.map(\.currency) == ["USD"])
        try await withSimnet { simnet, http in
            let expected = await expectedQuotes(simnet, provider: "bb")
            let quotes = try blockbook.quotes(
                try await live(http, "/api/v2/tickers/"),
                currencies: ["USD", "GBP", "EUR"]
            )
            #expect(quotes == expected)
            let one = try blockbook.quotes(
                try await live(http, "/api/v2/tickers/", query: [("currency", "usd")]),
                currencies: ["USD", "GBP", "EUR"]
            )
            #expect(one == expected.filter { $0.currency == "USD" })
        }
    }
}
