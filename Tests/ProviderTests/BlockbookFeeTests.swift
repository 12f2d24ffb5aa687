import BlockbookAdapter
import Foundation
import Testing
import WatcherCore
import WatcherTesting

/// `feeRate(blocks:)` on Blockbook's `/api/v2/estimatefee/<blocks>`: a decimal string of BTC per kvB read exactly
/// into sat/vB, and the answers that are no estimate or no number.
@Suite("Blockbook fee estimate")
struct BlockbookFeeTests {
    static func answer(_ body: String) -> [String: FixtureServer.Answer] {
        ["/api/v2/estimatefee/1": .text(body, headers: [("Content-Type", "application/json; charset=utf-8")])]
    }

    static func blockbook(_ server: FixtureServer) -> BlockbookProvider {
        BlockbookProvider(id: "bb", baseURL: server.baseURL, http: server.http)
    }

    @Test(arguments: [
        (#"{"result":"0.00012299"}"#, "12.299"),
        (#"{"result":"0.00001"}"#, "1"),
        (#"{"result":"0.000125"}"#, "12.5"),
        (#"{"result":"1.23456789"}"#, "123456.789"),
        (#"{"result":0.00012299}"#, "12.299"),
    ])
    func theRateIsReadExactlyInSatPerVByte(body: String, expected: String) async throws {
        let rate = try await FixtureServer.with(Self.answer(body), adapter: Self.blockbook) {
            try await $0.feeRate(blocks: 1)
        }
        #expect(rate == Decimal(string: expected)!)
    }

    @Test(arguments: [#"{"result":"0"}"#, #"{"result":"-1"}"#, #"{"result":"-0.00000001"}"#])
    func zeroOrANegativeRateIsNoEstimate(body: String) async throws {
        try await FixtureServer.with(Self.answer(body), adapter: Self.blockbook) { bb in
            let error = await #expect(throws: ProviderError.self) { try await bb.feeRate(blocks: 1) }
            guard case .notFound(let provider, let what)? = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
            #expect(provider == "bb")
            #expect(what.contains("fee estimate for 1 block"))
        }
    }

    @Test(arguments: [
        #"{"result":"0.0001x"}"#, #"{"result":"abc"}"#, #"{"result":""}"#, #"{"result":true}"#, #"{}"#,
        #"{"result":"1e"}"#, "[]", "<html>Bad gateway</html>",
    ])
    func aMalformedResultIsAnInvalidResponse(body: String) async throws {
        try await FixtureServer.with(Self.answer(body), adapter: Self.blockbook) { bb in
            let error = await #expect(throws: ProviderError.self) { try await bb.feeRate(blocks: 1) }
            guard case .invalidResponse(let provider, _)? = error else {
                Issue.record("expected invalidResponse for \(body), got \(String(describing: error))")
                return
            }
            #expect(provider == "bb")
        }
    }

    @Test func aTargetBelowOneIsRefusedWithoutARequest() async throws {
        try await FixtureServer.with(Self.answer(#"{"result":"0.0001"}"#)) { server in
            let bb = Self.blockbook(server)
            await #expect(throws: ProviderError.badRequest(provider: "bb", detail: "blocks 0 is below 1")) {
                try await bb.feeRate(blocks: 0)
            }
            #expect(server.requests.isEmpty)
        }
    }
}
