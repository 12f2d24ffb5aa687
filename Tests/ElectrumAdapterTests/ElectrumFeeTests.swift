import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// `feeRate(blocks:)` on `blockchain.estimatefee`: BTC per kvB read exactly into sat/vB from the simnet's face, and
/// from a loopback server answering the shapes the face does not: `-1` (no estimate) and answers that are no number.
@Suite("electrum fee estimate")
struct ElectrumFeeTests {
    /// A server answering `blockchain.estimatefee [1]` with `result` after the session start.
    static func withServer(_ result: JSONValue, _ body: (ElectrumProvider) async throws -> Void) async throws {
        var answers = try ElectrumReplayTests.answers()
        answers[ReplayServer.key("blockchain.estimatefee", .array([.number("1")]))] = result
        let server = try await ReplayServer(answers: answers)
        let provider = ElectrumProvider(
            id: "el",
            endpoint: ElectrumEndpoint(host: "127.0.0.1", port: server.port),
            chain: "btc-regtest",
            timeout: .seconds(30),
            maxLineLength: 1 << 20
        )
        do {
            try await body(provider)
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }

    @Test("the simnet's rate, exactly, as it changes")
    func followsTheSimnet() async throws {
        var configuration = SimnetConfiguration(seed: 7, txsPerBlock: 5)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let provider = try ElectrumContractTests.provider(simnet)
            #expect(try await provider.feeRate(blocks: 1) == 10)
            await simnet.setFeeRate(Decimal(string: "12.5")!)
            #expect(try await provider.feeRate(blocks: 1) == Decimal(string: "12.5")!)
            await simnet.setFeeRate(Decimal(string: "0.1234")!)
            #expect(await simnet.feeRate() == Decimal(string: "0.123")!)
            #expect(try await provider.feeRate(blocks: 25) == Decimal(string: "0.123")!)
        }
    }

    @Test("-1 is no estimate: notFound naming what is missing")
    func minusOneIsNoEstimate() async throws {
        try await Self.withServer(.number("-1")) { provider in
            await #expect(
                throws: ProviderError.notFound(
                    provider: "el",
                    what: "fee estimate for 1 block(s) (the server answered -1: no estimate)"
                )
            ) {
                try await provider.feeRate(blocks: 1)
            }
        }
    }

    @Test(
        "an answer that is no BTC/kvB number is an invalid response",
        arguments: [
            JSONValue.string("0.0001"), .null, .object([]), .array([]),
        ]
    )
    func notANumber(_ result: JSONValue) async throws {
        try await Self.withServer(result) { provider in
            let error = await #expect(throws: ProviderError.self) { try await provider.feeRate(blocks: 1) }
            guard case .invalidResponse("el", _)? = error else {
                Issue.record("expected invalidResponse for \(result.serialized()), got \(String(describing: error))")
                return
            }
        }
    }

    @Test("an exact rate from the server's text")
    func exactRate() async throws {
        try await Self.withServer(.number("0.00012299")) { provider in
            let rate = try await provider.feeRate(blocks: 1)
            #expect(rate == Decimal(string: "12.299")!)
        }
    }
}
