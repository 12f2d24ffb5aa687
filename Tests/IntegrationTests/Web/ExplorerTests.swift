import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// The explorer commands as a user runs them: against the data dir `watcher demo` leaves behind, and
/// `accounts add` against a live provider while `watcher run` is running.
@Suite(.serialized)
struct ExplorerTests {

    static func json(_ output: WatcherProcess.Result) throws -> JSONValue { try JSONValue.parse(output.stdout) }

    @Test func everyExplorerCommandWorksOnTheDemoData() async throws {
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let demo = try await DaemonHarness.watcher(["demo", "--duration", "12s", "--data", data])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("web UI: http://127.0.0.1:"), "the demo printed no web UI URL")
        for type in ["block.new", "address.tx.unconfirmed", "address.tx.confirmed", "price.updated"] {
            #expect(demo.stdout.contains(type), "the demo showed no \(type)")
        }
        let config = "\(data)/watcher.json"

        let blocks = try await DaemonHarness.watcher(["blocks", "--config", config])
        #expect(blocks.status == 0 && blocks.stdout.contains("HEIGHT"))
        let blocksJSON = try Self.json(
            try await DaemonHarness.watcher(["blocks", "--config", config, "--json", "--limit", "3"])
        )
        let newest = try #require(blocksJSON[0])
        #expect(blocksJSON.arrayValue?.count == 3)
        for key in ["hash", "height", "time", "merkleRoot", "nonce", "txCount"] {
            #expect(newest[key] != nil, "blocks: \(key)")
        }

        let hash = try #require(newest["hash"]?.stringValue)
        let block = try await DaemonHarness.watcher(["block", "--config", config, hash])
        #expect(block.status == 0 && block.stdout.contains("merkle root") && block.stdout.contains("ago"))
        let byHeight = try Self.json(
            try await DaemonHarness.watcher([
                "block", "--config", config, "--json", newest["height"]?.serialized() ?? "",
            ])
        )
        #expect(byHeight["hash"]?.stringValue == hash)

        let accounts = try await DaemonHarness.watcher(["accounts", "list", "--config", config])
        #expect(accounts.status == 0 && accounts.stdout.contains("Savings") && accounts.stdout.contains("USD"))
        let accountsJSON = try Self.json(
            try await DaemonHarness.watcher(["accounts", "list", "--config", config, "--json"])
        )
        let first = try #require(accountsJSON[0])
        for key in [
            "address", "label", "balanceSat", "totalReceivedSat", "totalSentSat", "txCount", "unconfirmedBalanceSat",
            "unconfirmedTxCount",
        ] {
            #expect(first[key] != nil, "accounts: \(key)")
        }
        let address = try #require(first["address"]?.stringValue)
        let show = try await DaemonHarness.watcher(["accounts", "show", "--config", config, address])
        #expect(show.status == 0 && show.stdout.contains("total received"))
        let showJSON = try Self.json(
            try await DaemonHarness.watcher(["accounts", "show", "--config", config, "--json", address])
        )
        #expect(showJSON["address"]?.stringValue == address)

        let price = try await DaemonHarness.watcher(["price", "--config", config])
        #expect(price.status == 0 && price.stdout.contains("GBP") && price.stdout.contains("EUR"))
        let priceJSON = try Self.json(try await DaemonHarness.watcher(["price", "--config", config, "--json"]))
        for quote in priceJSON.arrayValue ?? [] {
            for key in ["currency", "price", "time", "provider"] { #expect(quote[key] != nil, "price: \(key)") }
        }
        #expect(priceJSON.arrayValue?.count == 3)
    }

    @Test func readCommandsFailAtOnceWithoutAStore() async throws {
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let config = "\(data)/watcher.json"
        try #"{"storage": {"path": "./store"}, "providers": [], "sinks": []}"#.write(
            toFile: config,
            atomically: true,
            encoding: .utf8
        )
        for command in [["blocks"], ["price"], ["accounts", "list"], ["events", "list"]] {
            let result = try await DaemonHarness.watcher(command + ["--config", config])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("no watcher store"), "\(command): \(result.stderr)")
        }
    }

    @Test func accountsAddValidatesChecksAndIsPickedUpByARunningWatcher() async throws {
        var configuration = SimnetConfiguration(seed: 4, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 4, txsPerBlock: 3, fundedAddressCount: 30)
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(configuration) { harness in
            let funded = try #require(await harness.simnet.addresses().first(where: \.funded))
            let config = "\(data)/watcher.json"
            try """
            {"storage": {"path": "./store"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(harness.simnet.baseURL)"},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}],
             "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"}],
             "sinks": []}
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let invalid = try await DaemonHarness.watcher(["accounts", "add", "--config", config, "bc1qinvalid"])
            #expect(invalid.status == 2 && invalid.stderr.contains("invalid address"))
            // A valid address with no transactions: an error, and nothing is stored.
            let unused = try await DaemonHarness.watcher([
                "accounts", "add", "--config", config, "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            ])
            #expect(unused.status == 1 && unused.stderr.contains("has no transactions"), "\(unused.stderr)")

            let daemon = try WatcherProcess.daemon(config: config)
            let added = try await DaemonHarness.watcher([
                "accounts", "add", "--config", config, "bitcoin:\(funded.address)?label=Found", "--label", "Kept",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            // The running daemon refreshes it without a restart (accounts refresh every 60 s by default).
            let store = try await DaemonHarness.waitForStore("\(data)/store")
            try await eventually(timeout: .seconds(20), "the running watcher to refresh the new account") {
                try store.read { try $0.addressState(chain: "btc", address: funded.address)?.summary != nil }
            }
            let summary = try store.read { try $0.addressState(chain: "btc", address: funded.address)?.summary }
            #expect(summary?.balanceSat == funded.confirmedBalanceSat)
            await store.close()
            try await WatcherProcess.stop(daemon)
            let list = try Self.json(
                try await DaemonHarness.watcher(["accounts", "list", "--config", config, "--json"])
            )
            #expect(list[0]?["label"]?.stringValue == "Kept")
            let removed = try await DaemonHarness.watcher(["accounts", "remove", "--config", config, funded.address])
            #expect(removed.status == 0)
        }
    }
}
