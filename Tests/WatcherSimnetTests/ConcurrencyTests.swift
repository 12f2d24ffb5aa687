import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// Requests are served concurrently, and stay consistent while blocks are mined underneath them.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func concurrentRequestsWhileMining() async throws {
        try await Simnet.with { simnet in
            let funded = await simnet.addresses().map(\.address)
            let paths =
                funded.prefix(6).flatMap { ["/api/v2/address/\($0)?details=txs", "/rawaddr/\($0)"] }
                + [
                    "/api/", "/latestblock", "/v1/bpi/currentprice.json", "/v2/prices/BTC-GBP/spot",
                    "/api/v2/block/800003",
                ]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for round in 0..<8 {
                    for path in paths {
                        group.addTask { try await SimnetHarness.get(simnet, path).status }
                    }
                    group.addTask {
                        try await simnet.mine(count: 1)
                        if round % 3 == 0 { try await simnet.reorg(depth: 1) }
                        return 200
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 8 * (paths.count + 1))
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(await simnet.tip().height == 800_013)
            // Each body is rendered from one consistent snapshot: balances still add up afterwards.
            for truth in await simnet.addresses().prefix(6) {
                let body = try await SimnetHarness.get(simnet, "/rawaddr/\(truth.address)").json()
                #expect(body["final_balance"]?.int == Int(truth.finalBalanceSat))
            }
        }
    }
}
