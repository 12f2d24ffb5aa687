import BlockbookProvider
import CoinDeskProvider
import JSONPriceProvider
import RawAddrProvider
import Testing
import WatcherCore
import WatcherTesting

/// Every built-in adapter passes the contract kit against the simnet over loopback HTTP.
@Suite("Contract kit against the simnet")
struct ContractTests {
    @Test func blockbookChain() async throws {
        try await ChainProviderContract.run { baseURL, http in
            BlockbookProvider(id: "bb", baseURL: baseURL, http: http)
        }
    }

    @Test func rawaddrChain() async throws {
        try await ChainProviderContract.run { baseURL, http in
            RawAddrProvider(id: "bci", baseURL: baseURL, http: http, batchSize: 7)
        }
    }

    @Test func blockbookTickers() async throws {
        try await PriceProviderContract.run { baseURL, http in
            BlockbookProvider(id: "bb", baseURL: baseURL, http: http)
        }
    }

    @Test func coinDesk() async throws {
        try await PriceProviderContract.run { baseURL, http in
            CoinDeskProvider(id: "cd", baseURL: baseURL, http: http)
        }
    }

    @Test func coinbasePresetAtTheSimnet() async throws {
        try await PriceProviderContract.run { baseURL, http in
            var feed = JSONPriceFeed(preset: .coinbase)
            feed.url = baseURL + "/v2/prices/BTC-{currency}/spot"
            return JSONPriceProvider(id: "cb", feed: feed, currencies: ["USD", "GBP", "EUR"], http: http)
        }
    }

    @Test func genericFeedReadingTheBPIByPath() async throws {
        try await PriceProviderContract.run { baseURL, http in
            let feed = JSONPriceFeed(
                url: baseURL + "/v1/bpi/currentprice/{currency}.json",
                pricePath: "bpi.{currency}.rate_float",
                timePath: "time.updatedISO"
            )
            return JSONPriceProvider(id: "bpi-path", feed: feed, currencies: ["USD", "GBP", "EUR"], http: http)
        }
    }
}
