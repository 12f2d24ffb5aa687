import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `/control/fee`: the next-block fee rate over the control API, and the three faces that serve it.
@Suite("The simnet's /control/fee")
struct FeeControlTests {
    @Test("POST sets the rate and answers it, GET reads it, a bad body is a 400 naming satPerVB")
    func setAndGet() async throws {
        try await Simnet.with { simnet in
            let initial = try await SimnetHarness.get(simnet, "/control/fee")
            #expect(initial.status == 200)
            #expect(
                try initial.json()
                    == .object([.init("satPerVB", .string("10")), .init("btcPerKvB", .string("0.00010000"))])
            )

            let set = try await SimnetHarness.post(simnet, "/control/fee", json: #"{"satPerVB": "12.5"}"#)
            #expect(set.status == 200)
            #expect(
                try set.json()
                    == .object([.init("satPerVB", .string("12.5")), .init("btcPerKvB", .string("0.00012500"))])
            )
            #expect(try await SimnetHarness.get(simnet, "/control/fee").json()["satPerVB"] == .string("12.5"))
            #expect(await simnet.feeRate() == Decimal(string: "12.5")!)

            // Finer than 0.001 sat/vB: the nearest 0.001, half up.
            let rounded = try await SimnetHarness.post(simnet, "/control/fee", json: #"{"satPerVB": "7.0005"}"#)
            #expect(try rounded.json()["satPerVB"] == .string("7.001"))
            let down = try await SimnetHarness.post(simnet, "/control/fee", json: #"{"satPerVB": "7.0004999"}"#)
            #expect(try down.json()["satPerVB"] == .string("7"))

            let bad = [
                #"{"satPerVB": "12.5x"}"#, #"{"satPerVB": "abc"}"#, #"{"satPerVB": true}"#, #"{"fee": "12.5"}"#,
                #"{"satPerVB": "0"}"#, #"{"satPerVB": "-3"}"#, #"{"satPerVB": "0.0004"}"#, "[]", "not json",
            ]
            for body in bad {
                let answer = try await SimnetHarness.post(simnet, "/control/fee", json: body)
                #expect(answer.status == 400, "\(body): \(answer.status)")
                #expect(answer.text.contains("satPerVB"), "\(body): \(answer.text)")
            }
            #expect(await simnet.feeRate() == 7, "a refused body changes nothing")
            var delete = HTTPClientRequest(url: simnet.baseURL + "/control/fee")
            delete.method = .DELETE
            let wrongMethod = try await SimnetHarness.send(delete, timeout: .seconds(20))
            #expect(wrongMethod.status == 405)
        }
    }

    @Test("Blockbook, Core and Electrum faces answer the rate as BTC/kvB with 8 decimals")
    func facesServeTheRate() async throws {
        var configuration = SimnetConfiguration(seed: 5, txsPerBlock: 5)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            await simnet.setFeeRate(Decimal(string: "12.5")!)
            let blockbook = try await SimnetHarness.get(simnet, "/api/v2/estimatefee/1")
            #expect(try blockbook.json() == .object([.init("result", .string("0.00012500"))]))
            for path in ["/api/v2/estimatefee/0", "/api/v2/estimatefee/x", "/api/v2/estimatefee/"] {
                let refused = try await SimnetHarness.get(simnet, path)
                let error = try refused.json()["error"]
                #expect(refused.status == 400 && error != nil, "\(path)")
            }
            let stats = await simnet.stats()
            #expect(stats.families[.blockbook]?.endpoints["/api/v2/estimatefee"] == 4)

            let core = try await NodeHarness.result(simnet, "estimatesmartfee", "[1]")
            #expect(core == .object([.init("feerate", .number("0.00012500")), .init("blocks", .integer(2))]))
            #expect(try await NodeHarness.result(simnet, "estimatesmartfee", "[6]")["blocks"] == .integer(6))
            #expect(try await NodeHarness.error(simnet, "estimatesmartfee", "[0]")["code"] == .integer(-8))
            #expect(try await NodeHarness.error(simnet, "estimatesmartfee", "[1009]")["code"] == .integer(-8))
            await simnet.setNodeSettings(NodeSettings(insufficientFeeData: true))
            #expect(
                try await NodeHarness.result(simnet, "estimatesmartfee", "[1]")
                    == .object([
                        .init("errors", .array([.string("Insufficient data or no feerate found")])),
                        .init("blocks", .integer(0)),
                    ])
            )
            let shown = try await SimnetHarness.get(simnet, "/control/bitcoind").json()
            #expect(shown["insufficientFeeData"] == .bool(true))
        }
    }
}
