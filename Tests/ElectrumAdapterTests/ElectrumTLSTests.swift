import Foundation
import Testing
import WatcherCore
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// `ssl://` against the simnet's Electrum face over TLS, whose certificate is self-signed (as a self-hosted box's):
/// its pin is the way in, the trust store refuses it, a wrong pin is refused, `insecure` takes anything.
@Suite("electrum over TLS")
struct ElectrumTLSTests {
    static func provider(_ simnet: Simnet, _ tls: ElectrumTLS) throws -> ElectrumProvider {
        ElectrumProvider(
            id: "el",
            endpoint: ElectrumEndpoint(host: "127.0.0.1", port: try #require(simnet.electrumPort), tls: tls),
            chain: "btc",
            timeout: .seconds(20),
            maxLineLength: 1 << 20
        )
    }

    static func refused(_ provider: ElectrumProvider) async -> String? {
        do {
            _ = try await provider.tip()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func thePinnedCertificateIsTheWayInAndNothingElseIs() async throws {
        var configuration = SimnetConfiguration(seed: 11, txsPerBlock: 5)
        configuration.electrumPort = 0
        configuration.electrumTLS = true
        try await Simnet.with(configuration) { simnet in
            let pinText = try #require(simnet.electrumPin)
            let pin = try #require(ElectrumTLS.pin(pinText))
            let truth = await simnet.tip()
            let pinned = try Self.provider(simnet, .pin(pin))
            let tip = try await pinned.tip()
            #expect(tip.height == truth.height && tip.hash == truth.hash)
            #expect(try await Self.provider(simnet, .insecure).tip().hash == truth.hash)

            var wrong = pin
            wrong[0] ^= 0xff
            let mismatch = await Self.refused(try Self.provider(simnet, .pin(wrong)))
            #expect(mismatch != nil, "a wrong pin was accepted")
            #expect(mismatch?.contains("does not match `pin`") == true, "\(mismatch ?? "")")
            let untrusted = await Self.refused(try Self.provider(simnet, .ca))
            #expect(untrusted?.contains("not trusted by the system") == true, "\(untrusted ?? "accepted")")
            // Plain TCP to a TLS port gets no session either.
            let plain = ElectrumProvider(
                id: "el",
                endpoint: ElectrumEndpoint(host: "127.0.0.1", port: try #require(simnet.electrumPort)),
                chain: "btc",
                timeout: .seconds(3),
                maxLineLength: 1 << 20
            )
            #expect(await Self.refused(plain) != nil)
        }
    }

    @Test func sslToAPlainPortSaysTheServerDoesNotSpeakTLS() async throws {
        var configuration = SimnetConfiguration(seed: 12, txsPerBlock: 5)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            for tls in [ElectrumTLS.ca, .insecure] {
                let refused = await Self.refused(try Self.provider(simnet, tls))
                #expect(refused?.contains("the server does not speak TLS (a tcp:// port?)") == true, "\(refused ?? "")")
                #expect(refused?.contains("BoringSSL") == false && refused?.contains("handshakeFailed") == false)
                #expect(refused?.contains(".swift") == false, "a build path: \(refused ?? "")")
            }
        }
    }
}
