import BitcoindAdapter
import BlockbookAdapter
import CoinDeskAdapter
import JSONPriceAdapter
import RawAddrAdapter
import Testing
import WatcherCore
import WatcherTesting

/// Every built-in adapter passes the contract kit against the simnet over loopback HTTP.
@Suite("Contract kit against the simnet")
struct ContractTests {
    /// An adapter as the contract builds it, named in the test report.
    struct Adapter<Factory: Sendable>: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let make: Factory

        init(_ name: String, make: Factory) {
            testDescription = name
            self.make = make
        }
    }

    static let chainAdapters: [Adapter<ChainProviderContract.Factory>] = [
        Adapter("blockbook") { baseURL, http in BlockbookProvider(id: "bb", baseURL: baseURL, http: http) },
        Adapter("rawaddr") { baseURL, http in
            RawAddrProvider(id: "bci", baseURL: baseURL, http: http, batchSize: 7)
        },
        Adapter("bitcoind (JSON-RPC)") { baseURL, http in
            BitcoindProvider(
                id: "node",
                baseURL: baseURL,
                http: http,
                auth: .password(user: "watcher", password: "watcher")
            )
        },
        Adapter("bitcoind (REST)") { baseURL, http in
            BitcoindProvider(
                id: "node",
                baseURL: baseURL,
                http: http,
                auth: .password(user: "watcher", password: "watcher"),
                rest: true
            )
        },
    ]

    static let priceAdapters: [Adapter<PriceProviderContract.Factory>] = [
        Adapter("blockbook tickers") { baseURL, http in BlockbookProvider(id: "bb", baseURL: baseURL, http: http) },
        Adapter("coindesk") { baseURL, http in CoinDeskProvider(id: "cd", baseURL: baseURL, http: http) },
        Adapter("coinbase preset at the simnet") { baseURL, http in
            var feed = JSONPriceFeed(preset: .coinbase)
            feed.url = baseURL + "/v2/prices/BTC-{currency}/spot"
            return JSONPriceProvider(id: "cb", feed: feed, currencies: ["USD", "GBP", "EUR"], http: http)
        },
        Adapter("generic feed reading the BPI by path") { baseURL, http in
            let feed = JSONPriceFeed(
                url: baseURL + "/v1/bpi/currentprice/{currency}.json",
                pricePath: "bpi.{currency}.rate_float",
                timePath: "time.updatedISO"
            )
            return JSONPriceProvider(id: "bpi-path", feed: feed, currencies: ["USD", "GBP", "EUR"], http: http)
        },
    ]

    @Test(arguments: chainAdapters)
    func chain(_ adapter: Adapter<ChainProviderContract.Factory>) async throws {
        try await ChainProviderContract.run(make: adapter.make)
    }

    @Test(arguments: priceAdapters)
    func price(_ adapter: Adapter<PriceProviderContract.Factory>) async throws {
        try await PriceProviderContract.run(make: adapter.make)
    }
}
