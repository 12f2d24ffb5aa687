import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `watcher wallets next/show/list` and `watcher check` as real processes beside `watcher run` (another process),
/// against the simnet: an address handed out while the daemon runs is followed, its payment announced once with its
/// `data.wallet`, and `show` reports the balance exactly.
@Suite(.serialized)
struct WalletCommandTests {
    /// Polling only (`"websocket": false`): the payment is first seen in a block, by the scan, whatever the timing.
    static func config(_ simnet: Simnet, _ data: String) throws -> String {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "bb", "type": "blockbook",
                            "options": {"url": "\(simnet.baseURL)", "timeout": "2s", "websocket": false},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}],
             "watches": [
               {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
               {"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "scan",
                "descriptor": "\(WalletHarness.descriptor)", "gap": 3, "label": "Shop"}
             ],
             "sinks": [{"id": "file", "type": "file", "options": {"path": "\(data)/events.jsonl"}}]}
            """
        let path = "\(data)/watcher.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func json(_ arguments: [String], config: String) async throws -> JSONValue {
        let result = try await WatcherProcess.run(arguments + ["--config", config, "--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr) \(result.stdout)")
        return try JSONValue.parse(result.stdout)
    }

    static func events(_ data: String) -> [JSONValue] {
        let text = (try? String(contentsOfFile: "\(data)/events.jsonl", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }

    @Test func anAddressHandedOutWhileTheDaemonRunsIsFollowedAndShown() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, _, data in
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let config = try Self.config(simnet, data)
            let before = try await WatcherProcess.run(["check", "--config", config])
            #expect(before.status == 0 && before.stdout.contains("  shop: not scanned yet"), "\(before.stdout)")
            let daemon = try WatcherProcess.daemon(config: config)
            defer { daemon.signal(SIGTERM) }
            try await eventually(timeout: .seconds(60), "the initial sync") {
                let shown = try await Self.json(["wallets", "show", "shop"], config: config)
                return shown["receive"]?["checkedUpTo"] == .number("2")
                    && shown["change"]?["checkedUpTo"] == .number("2")
            }
            let checked = try await WatcherProcess.run(["check", "--config", config])
            #expect(
                checked.stdout.contains("  shop: receive scanned 0…2: no payments; change scanned 0…2: no payments"),
                "\(checked.stdout)"
            )

            let first = try await Self.json(["wallets", "next", "shop", "--label", "Order 1"], config: config)
            let address = try WalletHarness.address(.receive, 0)
            #expect(
                first
                    == .object([
                        .init("wallet", .string("shop")), .init("branch", .string("receive")),
                        .init("index", .number("0")), .init("address", .string(address)),
                        .init("uri", .string("bitcoin:\(address)?label=Order%201")), .init("label", .string("Order 1")),
                    ])
            )
            let txid = try await simnet.pay(to: address, amountSat: 123_456)
            _ = try await simnet.mine(count: 1)
            try await eventually(timeout: .seconds(30), "the payment in the file sink") {
                Self.events(data).contains {
                    $0["type"] == .string("address.tx.confirmed") && $0["data"]?["txid"] == .string(txid)
                }
            }
            let second = try await Self.json(["wallets", "next", "shop"], config: config)
            let next = try WalletHarness.address(.receive, 1)
            #expect(second["index"] == .number("1") && second["uri"] == .string("bitcoin:\(next)"))

            let shown = try await eventuallyValue(timeout: .seconds(30), "the balance in wallets show") {
                let shown = try await Self.json(["wallets", "show", "shop"], config: config)
                return shown["balanceSat"] == .number("123456") ? shown : nil
            }
            #expect(shown["balanceBtc"] == .string("0.00123456") && shown["unconfirmedSat"] == .number("0"))
            #expect(shown["descriptor"] == .string(WalletHarness.descriptor) && shown["gap"] == .number("3"))
            #expect(shown["receive"]?["lastUsed"] == .number("0") && shown["receive"]?["lastIssued"] == .number("1"))
            #expect(shown["receive"]?["derivedUpTo"] == .number("4") && shown["change"]?["lastUsed"] == .null)
            let used = shown["addresses"]?.arrayValue ?? []
            #expect(used.count == 1 && used.first?["address"] == .string(address))
            #expect(used.first?["label"] == .string("Order 1") && used.first?["balanceSat"] == .number("123456"))
            #expect(shown["transactions"]?[0]?["txid"] == .string(txid))
            let listed = try await Self.json(["wallets", "list"], config: config)
            #expect(listed[0]?["wallet"] == .string("shop") && listed[0]?["balanceSat"] == .number("123456"))

            let announced = Self.events(data).filter {
                $0["data"]?["txid"] == .string(txid) && $0["type"]?.stringValue?.hasPrefix("address.tx.") == true
            }
            #expect(
                announced.map { $0["type"]?.stringValue ?? "" } == ["address.tx.confirmed", "address.tx.confirmations"]
            )
            #expect(announced.first?["data"]?["wallet"]?["index"] == .number("0"))
            // The payment first seen in a block: its two steps, as for an address followed alone.
            let steps = Self.events(data).filter { $0["type"] == .string("wallet.balance.changed") }
            #expect(steps.map { $0["data"]?["state"] } == [.string("unconfirmed"), .string("confirmed")])
            #expect(try await WatcherProcess.stop(daemon) == 0)
        }
    }
}
