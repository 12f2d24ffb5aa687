import Foundation
import Testing
import WatcherCore
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

@testable import ElectrumAdapter

/// Session start and failures of the provider: the genesis check, dead ports, endpoint texts.
@Suite("electrum provider session and failures")
struct ElectrumProviderTests {
    @Test("a server of another chain is refused: health says chain mismatch, calls fail with it")
    func genesisMismatch() async throws {
        var configuration = SimnetConfiguration(seed: 7, txsPerBlock: 5)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let provider = try ElectrumContractTests.provider(simnet, chain: "btc-testnet4")
            let health = try await provider.health()
            #expect(!health.isHealthy)
            #expect(health.reason?.contains("chain mismatch") == true, "\(health)")
            #expect(health.reason?.contains("00000000da84f2ba") == true, "names the chain wanted: \(health)")
            await #expect {
                _ = try await provider.tip()
            } throws: { error in
                guard case .badRequest(_, let detail) = error as? ProviderError else { return false }
                return detail.contains("chain mismatch")
            }
            // The configured chain's genesis matches: the same server is fine.
            let mainnet = try ElectrumContractTests.provider(simnet, chain: "btc")
            #expect(try await mainnet.health().isHealthy)
        }
    }

    @Test("a dead port is a transport error naming the endpoint, and later calls back off")
    func deadPort() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let provider = ElectrumProvider(
            id: "el",
            endpoint: ElectrumEndpoint(host: "127.0.0.1", port: port),
            chain: "btc",
            timeout: .seconds(10),
            maxLineLength: 1 << 20
        )
        for _ in 0..<2 {
            await #expect {
                _ = try await provider.tip()
            } throws: { error in
                guard case .transport(let id, let detail) = error as? ProviderError else { return false }
                return id == "el" && detail.contains("127.0.0.1:\(port)")
            }
        }
        _ = refusing
    }

    @Test("endpoint texts: tcp://host:port is plain, ssl://host:port is TLS checked against the trust store")
    func endpoints() throws {
        #expect(
            try ElectrumEndpoint.parse("tcp://electrs.local:50001").get()
                == ElectrumEndpoint(host: "electrs.local", port: 50001)
        )
        #expect(try ElectrumEndpoint.parse("tcp://[::1]:50001").get() == ElectrumEndpoint(host: "::1", port: 50001))
        #expect(
            try ElectrumEndpoint.parse("ssl://fulcrum.local:50002").get()
                == ElectrumEndpoint(host: "fulcrum.local", port: 50002, tls: .ca)
        )
        for bad in ["http://host:50001", "tcp://host", "tcp://:50001", "tcp://host:0", "ssl://host"] {
            guard case .failure(let problem) = ElectrumEndpoint.parse(bad) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(problem.message.contains(bad))
        }
    }

    @Test("pins: sha256/ and the digest in base64 or hex")
    func pins() {
        let digest = [UInt8](repeating: 0xab, count: 32)
        #expect(ElectrumTLS.pin("sha256/" + Data(digest).base64EncodedString()) == digest)
        #expect(ElectrumTLS.pin("SHA256/" + String(repeating: "ab", count: 32)) == digest)
        #expect(ElectrumTLS.pin("sha256/abc") == nil)
        #expect(ElectrumTLS.pin(Data(digest).base64EncodedString()) == nil)
    }
}
