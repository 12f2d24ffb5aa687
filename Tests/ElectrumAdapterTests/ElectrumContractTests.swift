import Testing
import WatcherCore
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// The provider against the simnet's Electrum face with the contract kit: tip, headers, address summaries and
/// histories, transactions, a mempool payment and a reorg agree with the chain's truth.
@Suite("electrum provider contract")
struct ElectrumContractTests {
    static func provider(_ simnet: Simnet, chain: String? = "btc", pushAddresses: Int? = nil) throws
        -> ElectrumProvider
    {
        let port = try #require(simnet.electrumPort)
        return ElectrumProvider(
            id: "electrum",
            endpoint: ElectrumEndpoint(host: "127.0.0.1", port: port),
            chain: chain,
            timeout: .seconds(30),
            maxLineLength: 8 << 20,
            pushAddresses: pushAddresses
        )
    }

    @Test("agrees with the simnet (electrs personality)")
    func electrs() async throws {
        try await ChainProviderContract.agreement(mempoolInAnyOrder: true, configure: { $0.electrumPort = 0 }) {
            simnet in
            try Self.provider(simnet)
        }
    }

    @Test("agrees with the simnet (fulcrum personality)")
    func fulcrum() async throws {
        try await ChainProviderContract.agreement(
            mempoolInAnyOrder: true,
            configure: {
                $0.electrumPort = 0
                $0.electrum.personality = .fulcrum
            }
        ) { simnet in
            try Self.provider(simnet)
        }
    }
}
