import BlockbookAdapter
import CoinDeskAdapter
import Foundation
import JSONPriceAdapter
import RawAddrAdapter
import Testing
import WatcherCore
import WatcherHTTP
import WatcherSimnet
import WatcherTesting

/// The blockchain.info-style and price-feed halves of ``SimnetDecoderParityTests``.
extension SimnetDecoderParityTests {
    // MARK: blockchain.info-style

    @Test func rawaddr() async throws {
        for (fixture, address, count) in [
            ("rawaddr/rawaddr_p2pkh_2tx_zero_balance.json", "1PYexakYRvWnzYa21kPWqbXgwPvLjnttMp", 2),
            ("rawaddr/rawaddr_p2pkh_page_of_3340_txs.json", "1XPTgDRhN8RFnzniWCddobD9iKZatrvH4", 3_340),
        ] {
            let node = try real(fixture)
            #expect(try rawaddr.rawaddrSummary(node, address: address, pageSize: 50).txCount == count, "\(fixture)")
            #expect(try rawaddr.rawaddrHistory(node, address: address).totalCount == count, "\(fixture)")
        }
        try await withSimnet { simnet, http in
            try await simnet.mine(count: 3)
            let truth = await ChainTruth(simnet)
            let p2pkh = try #require(truth.busiestAddresses.first { $0.kind == .p2pkh })
            // As the adapter asks.
            let node = try await live(
                http,
                "/rawaddr/\(ProviderHTTP.escape(p2pkh.address))",
                query: [("limit", "50"), ("offset", "0")]
            )
            expectAgrees(try rawaddr.rawaddrSummary(node, address: p2pkh.address, pageSize: 50), p2pkh, "rawaddr")
            let history = try rawaddr.rawaddrHistory(node, address: p2pkh.address)
            #expect(history.totalCount == p2pkh.confirmedTxCount + p2pkh.unconfirmedTxCount)
            expectAgrees(history.transactions, truth.history(of: p2pkh.address), "rawaddr history")
        }
    }

    @Test func multiaddr() async throws {
        let single = "bc1qdlt2jrplkf0v7ucvhhjhs0qf7cqr0j27k7j7p0"
        let pair = ["bc1q5242kk7ut5nkyv74g765amvwqnglrya6xgj6mz", "bc1qm4lpczdpkcs6j4twpzd2lgguy0sd8zzsm6puhl"]
        for (fixture, addresses) in [
            ("rawaddr/multiaddr_single_bech32_2tx.json", [single]),
            ("rawaddr/multiaddr_two_bech32_3tx.json", pair),
        ] {
            let summaries = try rawaddr.multiaddrSummaries(try real(fixture), addresses: addresses, txCount: 100)
            #expect(summaries.map(\.address) == addresses, "\(fixture)")
        }
        try await withSimnet { simnet, http in
            try await simnet.mine(count: 3)
            let truths = Array(await ChainTruth(simnet).busiestAddresses.prefix(2))
            let addresses = truths.map(\.address)
            // As the adapter asks.
            let node = try await live(
                http,
                "/multiaddr",
                query: [("active", addresses.joined(separator: "|")), ("n", "100")]
            )
            let summaries = try rawaddr.multiaddrSummaries(node, addresses: addresses, txCount: 100)
            for (summary, truth) in zip(summaries, truths) {
                expectAgrees(summary, truth, "multiaddr \(truth.address)")
            }
        }
    }

    @Test func latestBlock() async throws {
        // The stand-in: multiaddr's info.latest_block (see the suite's note).
        let standIn = try real("rawaddr/multiaddr_two_bech32_3tx.json").required("info").required("latest_block")
        #expect(try rawaddr.tip(standIn).height == 960_021)
        try await withSimnet { simnet, http in
            try await simnet.mine(count: 1)
            let tip = await simnet.tip()
            #expect(
                try rawaddr.tip(try await live(http, "/latestblock")) == BlockRef(height: tip.height, hash: tip.hash)
            )
        }
    }

    // MARK: Price feeds

    @Test func coinDeskCurrentPrice() async throws {
        let quotes = try coinDesk.quotes(
            try real("price/coindesk_currentprice_2021-09-30.json"),
            currencies: ["USD", "GBP", "EUR"]
        )
        #expect(quotes.map(\.currency) == ["USD", "GBP", "EUR"])
        try await withSimnet { simnet, http in
            let expected = await expectedQuotes(simnet, provider: "cd")
            let node = try await live(http, "/v1/bpi/currentprice.json")
            #expect(try coinDesk.quotes(node, currencies: ["USD", "GBP", "EUR"]) == expected)
        }
    }

    @Test func coinbaseSpot() async throws {
        // The preset's own URL and price path; only the host is the simnet.
        let preset = JSONPriceFeed(preset: .coinbase)
        func price(_ node: ProviderHTTP.JSONNode, _ currency: String) throws -> Decimal {
            let pricePath = JSONPriceFeed.fill(preset.pricePath, currency: currency)
            let path = try #require(JSONPath(pricePath))
            return try #require(path.resolve(in: node), "no price at \(pricePath)").decimal()
        }
        #expect(try price(try real("price/coinbase_v2_prices_btc_usd_spot.json"), "USD") == Decimal(4_869_123) / 100)
        try await withSimnet { simnet, http in
            let prices = await simnet.prices()
            let feed = preset.served(at: http.baseURL)
            for currency in PriceCurrency.allCases {
                let node = try await live(http, url: JSONPriceFeed.fill(feed.url, currency: currency.rawValue))
                #expect(try price(node, currency.rawValue) == prices[currency], "\(currency)")
            }
        }
    }
}
