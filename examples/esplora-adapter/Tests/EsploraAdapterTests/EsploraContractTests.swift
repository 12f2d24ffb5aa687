import EsploraAdapter
import Testing
import WatcherTesting

/// The contract kit in its fixture mode: the adapter over real loopback HTTP against electrs' recorded bodies,
/// under the rules every chain provider keeps and under every fault.
@Suite struct EsploraContractTests {
    static let samples = FixtureContract.Samples(
        height: 363_366,
        address: Fixture.basic,
        historyAddress: Fixture.taproot,
        txid: Fixture.multisigTx,
        unknownTxid: "b779bc24f17f0cea8dc556d4d1301642986517bfbbc631eab8a6454fca1202bb"
    )

    @Test func agreement() async throws {
        try await FixtureContract.agreement(
            try Fixture.routes(),
            notFound: try Fixture.answer("error-block-not-found-404.txt", status: 404),
            samples: Self.samples
        ) { baseURL, http in
            EsploraProvider(id: "esplora", baseURL: baseURL, http: http)
        }
    }

    @Test func failures() async throws {
        try await FixtureContract.failures(
            try Fixture.routes(),
            samples: Self.samples,
            rateLimitBody: try Fixture.text("error-rate-limited-429-blockstream.json")
        ) { baseURL, http in
            EsploraProvider(id: "esplora", baseURL: baseURL, http: http)
        }
    }
}
