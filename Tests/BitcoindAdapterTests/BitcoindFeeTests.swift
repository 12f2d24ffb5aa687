import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherTesting

@testable import BitcoindAdapter

/// `feeRate(blocks:)` on `estimatesmartfee`: the JSON number's text read exactly into sat/vB, a node without
/// enough data (Core's `errors` answer without `feerate`, always so on regtest), and a rate that is not a number.
@Suite struct BitcoindFeeTests {
    static func withProvider(
        _ result: JSONValue,
        _ body: (BitcoindProvider, RecordedNode) async throws -> Void
    ) async throws {
        let node = RecordedNode(["estimatesmartfee": .result(result)])
        try await node.serve { url in
            try await FixtureServer.withTransport { http in
                let provider = BitcoindProvider(
                    id: "node",
                    baseURL: url,
                    http: http,
                    auth: .password(user: "watcher", password: "x"),
                    chain: "btc"
                )
                try await body(provider, node)
            }
        }
    }

    @Test(arguments: [
        (#"{"feerate": 0.00012299, "blocks": 2}"#, "12.299"),
        (#"{"feerate": 0.00001000, "blocks": 2}"#, "1"),
        (#"{"feerate": 0.000125, "blocks": 3}"#, "12.5"),
        (#"{"feerate": 1.2e-4, "blocks": 2}"#, "12"),
    ])
    func theFeeRateIsReadFromTheNumbersText(body: String, expected: String) async throws {
        try await Self.withProvider(try JSONValue.parse(body)) { provider, node in
            let rate = try await provider.feeRate(blocks: 1)
            #expect(rate == Decimal(string: expected)!)
            #expect(node.calls == ["estimatesmartfee [1]"])
        }
    }

    @Test func aNodeWithoutEnoughDataHasNoEstimate() async throws {
        let regtest = try JSONValue.parse(#"{"errors": ["Insufficient data or no feerate found"], "blocks": 0}"#)
        try await Self.withProvider(regtest) { provider, _ in
            await #expect(
                throws: ProviderError.notFound(
                    provider: "node",
                    what: "fee estimate for 2 block(s) (estimatesmartfee: Insufficient data or no feerate found)"
                )
            ) {
                try await provider.feeRate(blocks: 2)
            }
        }
    }

    @Test(arguments: [
        #"{"feerate": "0.0001", "blocks": 2}"#, #"{"feerate": true, "blocks": 2}"#, #"{"errors": []}"#, #"[]"#,
    ])
    func aFeeRateThatIsNotABTCNumberIsAnInvalidResponse(body: String) async throws {
        try await Self.withProvider(try JSONValue.parse(body)) { provider, _ in
            let error = await #expect(throws: ProviderError.self) { try await provider.feeRate(blocks: 1) }
            guard case .invalidResponse(let id, _)? = error else {
                Issue.record("expected invalidResponse for \(body), got \(String(describing: error))")
                return
            }
            #expect(id == "node")
        }
    }

    @Test func aNegativeRateIsNoEstimate() async throws {
        try await Self.withProvider(try JSONValue.parse(#"{"feerate": -1, "blocks": 2}"#)) { provider, _ in
            let error = await #expect(throws: ProviderError.self) { try await provider.feeRate(blocks: 1) }
            guard case .notFound("node", _)? = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
        }
    }
}
