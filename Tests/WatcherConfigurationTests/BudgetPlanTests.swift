import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// The request budget plan `watcher check` prints.
struct BudgetPlanTests {
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
               {"id": "many", "type": "address", "providers": ["bb"], "every": "1m", "strategy": "poll",
                "addresses": [\(addressList(200))]}
             ],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        )
        let plan = BudgetPlan(config: config)
        let line = try #require(plan.lines.first)
        // 20 a minute, kept with the safety margin: 3 s × 1.02 + 10 ms between requests.
        #expect(Int(line.budgetPerHour.rounded()) == 1173)
        // 200 addresses each minute and after each of ~6 new blocks an hour: 200 × 66.
        #expect(line.demands.first { $0.watch == "watch many" }?.requestsPerHour == 13_200)
        // Blockbook's tip costs 2 requests (status, then block index). With the websocket (on by default) it is read
        // on each of ~6 pushed blocks and by a safety poll every 5m, plus ~6 new headers: 2 × (6 + 12) + 6.
        #expect(line.demands.first { $0.watch == "watch tip" }?.requestsPerHour == 42)
        // Polling only: 120 probes an hour, plus ~6 new headers.
        let polled = try load(
            """
            {"providers": [{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example", "websocket": false}}],
             "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "30s"}],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        )
        let polledLine = try #require(BudgetPlan(config: polled).lines.first)
        #expect(polledLine.demands.first { $0.watch == "watch tip" }?.requestsPerHour == 246)
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
        // 200 addresses in batches of 80: 3 requests per round, 12 rounds an hour and 6 after new blocks; plus
        // the implicit tip.
        #expect(demands.first { $0.watch == "watch many" }?.requestsPerHour == 54)
        #expect(demands.first { $0.watch == "tip btc" }?.requestsPerHour == 12)
        #expect(plan.warnings.isEmpty)
    }
}

/// How `auto` chooses between polling and scanning, and what `check` says about it.
struct StrategyPlanTests {
    func load(addresses count: Int, strategy: String? = nil) throws -> WatcherConfig {
        let list = BudgetPlanTests().addressList(count)
        let field = strategy.map { #", "strategy": "\#($0)""# } ?? ""
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(
            bytes: Array(
                """
                {"providers": [{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example"}}],
                 "watches": [{"id": "shop", "type": "address", "providers": ["bb"], "every": "1m", "addresses": [\(list)]\(field)}],
                 "sinks": []}
                """.utf8
            )
        )
    }

    func work(_ plan: JobPlan, _ name: String) -> JobPlan.Job? { plan.jobs.first { $0.name == name } }

    /// Issue 33 item 16: Blockbook's websocket is on by default, and `check` says which path each watch takes.
    @Test func checkSaysWhichPathEachWatchTakes() throws {
        let pushed = JobPlan(config: try load(addresses: 5))
        #expect(work(pushed, "push btc") != nil)
        let detail = work(pushed, "watch shop")?.detail ?? ""
        #expect(
            detail.contains("path: push, with poll beside it (alone while the push is down or refused)"),
            "\(detail)"
        )
        let tip = work(pushed, "tip btc")?.detail ?? ""
        #expect(tip.contains("tip on each pushed block and every 5m while the push is up"), "\(tip)")

        let json = """
            {"providers": [{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example", "websocket": false}}],
             "watches": [{"id": "shop", "type": "address", "providers": ["bb"], "every": "1m",
                          "addresses": [\(BudgetPlanTests().addressList(5))]}],
             "sinks": []}
            """
        let polled = JobPlan(
            config: try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
        )
        #expect(work(polled, "push btc") == nil)
        let polledDetail = work(polled, "watch shop")?.detail ?? ""
        #expect(
            polledDetail.contains(#"push off ("websocket": false); auto picks poll; path: poll only"#),
            "\(polledDetail)"
        )
    }

    @Test func fewAddressesArePolledManyAreScanned() throws {
        let few = JobPlan(config: try load(addresses: 5))
        #expect(work(few, "watch shop")?.work == .addresses(chain: "btc", watch: "shop", strategy: .poll))
        #expect(work(few, "watch shop")?.detail.contains("auto picks poll") == true)
        let many = JobPlan(config: try load(addresses: 1_000))
        #expect(work(many, "watch shop")?.work == .addresses(chain: "btc", watch: "shop", strategy: .scan))
        #expect(work(many, "watch shop")?.requestsPerHour == 0)
        guard case .chain(_, _, _, _, _, let scan)? = work(many, "tip btc")?.work else {
            Issue.record("no chain job")
            return
        }
        // The CLI's accounts are scanned with the watch.
        #expect(scan?.watches == ["shop", JobPlan.accountsWatch])
        // 1,000 addresses a minute and after each of ~6 blocks an hour would be 66,000 requests/h; the scan reads
        // ~4 pages of 6 blocks an hour.
        #expect(work(many, "watch shop")?.detail.contains("poll 66000/h") == true)
        #expect(work(many, "watch shop")?.detail.contains("scan 24/h") == true)
        #expect(BudgetPlan(config: try load(addresses: 1_000)).warnings.isEmpty)
    }

    @Test func aConfiguredStrategyIsKept() throws {
        let plan = JobPlan(config: try load(addresses: 5, strategy: "scan"))
        #expect(work(plan, "watch shop")?.work == .addresses(chain: "btc", watch: "shop", strategy: .scan))
        #expect(work(plan, "watch shop")?.detail.contains("scan as configured") == true)
    }
}
