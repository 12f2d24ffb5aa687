import AsyncHTTPClient
import NIOCore
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// Injected faults: each kind's behaviour, seeded choice, and statistics.
@Suite("Fault injection")
struct FaultTests {
    private func always(_ kind: FaultConfiguration.Kind, slow: Duration = .milliseconds(300)) -> FaultConfiguration {
        FaultConfiguration(rate: 1, kinds: [kind], timeout: .seconds(120), slowDuration: slow)
    }

    @Test func serverErrorsUseTheFamilysBodyAndConfiguredStatuses() async throws {
        try await Simnet.with { simnet in
            await simnet.setFaults(family: .blockbook, always(.serverError))
            let blockbook = try await SimnetHarness.get(simnet, "/api/v2/block-index/")
            #expect(blockbook.status == 500 && blockbook.text == #"{"error":"Internal server error"}"#)

            let set = try await SimnetHarness.post(
                simnet,
                "/control/faults",
                json: #"{"family":"coinbase","rate":1,"kinds":["500"],"status":[503]}"#
            )
            #expect(set.status == 200)
            let coinbase = try await SimnetHarness.get(simnet, "/v2/prices/BTC-USD/spot")
            #expect(coinbase.status == 503)
            #expect(try coinbase.json()["errors"]?[0]?["id"]?.stringValue == "internal_server_error")
        }
    }

    @Test func malformedTruncatedAndWrongShapeBodies() async throws {
        try await Simnet.with { simnet in
            let path = "/api/v2/block/800001"
            let real = try await SimnetHarness.get(simnet, path)

            await simnet.setFaults(family: .blockbook, always(.malformed))
            let malformed = try await SimnetHarness.get(simnet, path)
            #expect(malformed.status == 200)
            #expect(throws: (any Error).self) { try malformed.json() }

            await simnet.setFaults(family: .blockbook, always(.truncated))
            let truncated = try await SimnetHarness.get(simnet, path)
            #expect(truncated.status == 200 && truncated.body.count == real.body.count / 2)
            #expect(Array(real.body.prefix(truncated.body.count)) == truncated.body)
            #expect(throws: (any Error).self) { try truncated.json() }

            await simnet.setFaults(family: .blockbook, always(.wrongShape))
            let wrong = try await SimnetHarness.get(simnet, path).json()
            #expect(wrong["blockbook"]?["bestHeight"] != nil && wrong["hash"] == nil)

            await simnet.setFaults(family: .blockbook, nil)
            #expect(try await SimnetHarness.get(simnet, path).body == real.body)
        }
    }

    @Test func slowTricklesTheRealBody() async throws {
        try await Simnet.with { simnet in
            let real = try await SimnetHarness.get(simnet, "/v1/bpi/currentprice.json")
            await simnet.setFaults(family: .coindesk, always(.slow, slow: .milliseconds(400)))
            let started = ContinuousClock.now
            let slow = try await SimnetHarness.get(simnet, "/v1/bpi/currentprice.json")
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(slow.status == 200 && slow.body == real.body)
        }
    }

    @Test func timeoutHoldsBeyondTheClientBudgetAndShutdownReleasesIt() async throws {
        let simnet = try await Simnet.start(SimnetConfiguration(seed: 42))
        await simnet.setFaults(family: .rawaddr, always(.timeout))
        await #expect(throws: HTTPClientError.self) {
            _ = try await SimnetHarness.get(simnet, "/latestblock", timeout: .milliseconds(300))
        }
        // The client gave up after 300 ms; on a loaded machine the request may reach the server only after that.
        try? await eventually(timeout: .seconds(10), "the timeout fault counted") {
            await simnet.stats().families[.rawaddr]?.faults == 1
        }
        let stats = await simnet.stats()
        #expect(stats.families[.rawaddr]?.faults == 1)
        #expect(stats.log.last?.fault == .timeout)
        // Graceful shutdown must not wait out the 120 s hold (60 s leaves room for a loaded machine).
        let started = ContinuousClock.now
        await simnet.shutdown()
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func faultChoiceComesFromTheSeed() async throws {
        func kinds(seed: UInt64) async throws -> [String] {
            try await Simnet.with(SimnetConfiguration(seed: seed)) { simnet in
                let faults = FaultConfiguration(rate: 0.5, kinds: [.serverError, .malformed, .truncated, .wrongShape])
                await simnet.setFaults(family: .blockbook, faults)
                for _ in 0..<40 { _ = try await SimnetHarness.get(simnet, "/api/v2/block-index/") }
                let stats = await simnet.stats()
                #expect(stats.families[.blockbook]?.faults == stats.log.filter { $0.fault != nil }.count)
                return stats.log.map { $0.fault?.rawValue ?? "-" }
            }
        }
        let first = try await kinds(seed: 5)
        #expect(try await first == (kinds(seed: 5)))
        #expect(try await first != (kinds(seed: 6)))
        #expect(first.contains("-") && first.contains { $0 != "-" })
    }

    @Test func controlAPIValidatesFaultRequests() async throws {
        try await Simnet.with { simnet in
            for body in [
                #"{"family":"nope","rate":0.5}"#,
                #"{"family":"blockbook","rate":2}"#,
                #"{"family":"blockbook","rate":0.5,"kinds":["explode"]}"#,
                #"{"family":"blockbook","rate":0.5,"timeout":"forever"}"#,
                #"{"rate":0.5}"#,
                "not json",
            ] {
                let answer = try await SimnetHarness.post(simnet, "/control/faults", json: body)
                #expect(answer.status == 400, "\(body)")
                #expect(try answer.json()["error"]?.stringValue != nil)
            }
        }
    }

    @Test func bitcoindFaultsUseCoresBodiesAndCountPerMethod() async throws {
        try await Simnet.with { simnet in
            let body = #"{"id":1,"method":"getblockcount"}"#
            await simnet.setFaults(
                family: .bitcoind,
                FaultConfiguration(rate: 1, kinds: [.serverError], statuses: [503])
            )
            let busy = try await NodeHarness.post(simnet, body)
            #expect(busy.status == 503 && busy.text == "Work queue depth exceeded")
            await simnet.setFaults(family: .bitcoind, FaultConfiguration(rate: 1, kinds: [.serverError]))
            let failed = try await NodeHarness.post(simnet, body)
            #expect(try failed.status == 500 && failed.json()["error"]?["code"]?.int == -32603)
            await simnet.setFaults(family: .bitcoind, always(.wrongShape))
            let wrong = try await NodeHarness.post(simnet, body)
            #expect(try wrong.status == 200 && wrong.json()["result"] == .array([]))
            await simnet.setFaults(family: .bitcoind, always(.truncated))
            let cut = try await SimnetHarness.get(simnet, "/rest/chaininfo.json")
            #expect(cut.status == 200 && (try? cut.json()) == nil)
            await simnet.setFaults(family: .bitcoind, nil)
            #expect(try await NodeHarness.post(simnet, body).json()["result"]?.int == (await simnet.tip()).height)

            let stats = await simnet.stats()
            let node = try #require(stats.families[.bitcoind])
            #expect(node.requests == 5 && node.faults == 4)
            #expect(node.endpoints["getblockcount"] == 4 && node.endpoints["/rest/chaininfo"] == 1)
            #expect(stats.log.last?.family == .bitcoind && stats.log.last?.path == "/")
        }
    }
}
