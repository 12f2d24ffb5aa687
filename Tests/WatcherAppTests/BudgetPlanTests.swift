import Testing
import WatcherApp
import WatcherCore

/// The request budget plan `watcher check` prints.
struct BudgetPlanTests {
    static let addresses = (0..<200).map { _ in "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }

    func load(_ json: String) throws -> WatcherConfig {
        try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    func addressList(_ count: Int) -> String {
        // Distinct valid addresses (`watcher check` rejects duplicates): P2WPKH programs 0, 1, 2, ...
        (0..<count).map { index in
            let program = [UInt8](repeating: 0, count: 18) + [UInt8(index / 256), UInt8(index % 256)]
            return "\"\(Bech32.segwitAddress(hrp: "bc", version: 0, program: program))\""
        }.joined(separator: ",")
    }

    @Test func overBudgetNamesTheWatchAndTheRemedy() throws {
        let config = try load(
            """
            {"providers": [{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example"}}],
             "watches": [
               {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "30s"},
               {"id": "many", "type": "address", "providers": ["bb"], "every": "1m", "addresses": [\(addressList(200))]}
             ],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        )
        let plan = BudgetPlan(config: config)
        let line = try #require(plan.lines.first)
        // 20 a minute, kept with the safety margin: 3 s × 1.05 + 20 ms between requests.
        #expect(Int(line.budgetPerHour.rounded()) == 1136)
        #expect(line.demands.first { $0.watch == "watch many" }?.requestsPerHour == 12_000)
        // Blockbook's tip costs 2 requests (status, then block index): 120 probes an hour, plus ~6 new headers.
        #expect(line.demands.first { $0.watch == "watch tip" }?.requestsPerHour == 246)
        #expect(line.isOverBudget)
        #expect(plan.warnings.count == 1)
        let warning = try #require(plan.warnings.first)
        #expect(warning.contains(#"slow watch "many" down from every 1m"#))
        #expect(warning.contains("or add another provider"))
        #expect(plan.text.contains("will refresh every"))
    }

    @Test func batchingProvidersCountBatches() throws {
        let config = try load(
            """
            {"providers": [{"id": "bci", "type": "rawaddr", "rateLimit": {"requests": 60, "per": "1m"}}],
             "watches": [{"id": "many", "type": "address", "providers": ["bci"], "every": "5m", "addresses": [\(addressList(200))]}],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        )
        let plan = BudgetPlan(config: config)
        let demands = try #require(plan.lines.first?.demands)
        // 200 addresses in batches of 80: 3 requests per round, 12 rounds an hour; plus the implicit tip.
        #expect(demands.first { $0.watch == "watch many" }?.requestsPerHour == 36)
        #expect(demands.first { $0.watch == "tip btc" }?.requestsPerHour == 12)
        #expect(plan.warnings.isEmpty)
    }
}
