import Foundation
import Testing
import WatcherJSON
import WatcherTesting

/// `watcher probe` and `watcher init --bitcoind` as real processes, against the recorded node on loopback.
@Suite struct BitcoindCommandTests {
    static let cookie = "__cookie__:5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c"

    @Test func probeTipHealthBlockAndTx() async throws {
        let header = try Recorded.json("getblockheader-test-1000-core0121.json")
        let hash = try #require(header["hash"]?.stringValue)
        let txid = "95d51e813daeb9a861b2dcdddf1da8c198d06452bbbecfd827447881ff79e061"
        let node = RecordedNode([
            "getblockchaininfo": .result(try Recorded.json("getblockchaininfo-main-764955-core23.json")),
            "getblockheader": .result(header),
            "getblockhash [1000]": .result(.string(hash)),
            "getrawtransaction": .result(
                try Recorded.json("getrawtransaction-verbose-testnet-95d51e81-mempool-lbtc.json")
            ),
        ])
        try await Recorded.withCookie(Self.cookie) { cookieFile in
            node.accept(Recorded.basic(Self.cookie))
            try await node.serve { url in
                let directory = URL(fileURLWithPath: cookieFile).deletingLastPathComponent()
                let config = directory.appendingPathComponent("watcher.json").path
                try Data(
                    """
                    {"storage": {"path": "./data"},
                     "providers": [{"id": "node", "type": "bitcoind", "chain": "btc",
                                    "options": {"url": "\(url)", "cookieFile": "\(cookieFile)"}}]}
                    """.utf8
                ).write(to: URL(fileURLWithPath: config))
                func probe(_ arguments: String...) async throws -> WatcherProcess.Result {
                    try await WatcherProcess.run(
                        ["probe", "--config", config, "node"] + arguments,
                        timeout: .seconds(30)
                    )
                }
                let tip = try await probe("tip")
                #expect(tip.status == 0, "\(tip.stderr)")
                #expect(try JSONValue.parse(tip.stdout)["height"] == .number("764955"))
                let health = try await probe("health")
                #expect(try JSONValue.parse(health.stdout)["healthy"] == .bool(true), "\(health.stderr)")
                let block = try await probe("block", "1000")
                #expect(try JSONValue.parse(block.stdout)["hash"] == .string(hash), "\(block.stderr)")
                let tx = try await probe("tx", txid)
                #expect(try JSONValue.parse(tx.stdout)["txid"] == .string(txid), "\(tx.stderr)")
                #expect(try JSONValue.parse(tx.stdout)["confirmations"] == .number("0"))
                // An address query is refused: a node has no address index.
                let address = try await probe("address", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")
                #expect(address.status == 1)
                #expect(address.stderr.contains("provider node: does not support address"))
            }
        }
    }

    @Test func initBitcoindWritesANodeConfigThatPassesCheck() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bitcoind-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let written = try await WatcherProcess.run(
            ["init", "--bitcoind"],
            environment: ["HOME": home.path],
            directory: home
        )
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOf: home.appendingPathComponent("watcher.json"), encoding: .utf8)
        #expect(text.contains(#""type": "bitcoind""#))
        #expect(text.contains(#""cookieFile": "\#(home.path)/.bitcoin/.cookie""#))
        let check = try await WatcherProcess.run(["check"], environment: ["HOME": home.path], directory: home)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("bitcoind"))
    }
}
