import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// The Electrum face's per-server quirks: a lagging index, electrs's unavailable index, Fulcrum's and ElectrumX's
/// history limits, and methods a server lacks; errors in the wire shapes transcribed from the servers' sources.
@Suite("The simnet's Electrum quirks")
struct ElectrumQuirkFaceTests {
    static let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    /// The error a server writes `when`, from errors-by-server-transcribed.json.
    static func transcribed(_ server: String, _ when: String) throws -> ElectrumClient.Failure {
        let all = try ElectrumHarness.fixtureJSON("errors-by-server-transcribed.json")
        let key = try #require(all.keys.first { $0.hasPrefix(server) })
        let entry = try #require(all[key]?.arrayValue?.first { $0["when"]?.stringValue?.hasPrefix(when) == true })
        let code = try #require(entry["error"]?["code"]?.int)
        let message = try #require(entry["error"]?["message"]?.stringValue)
        return .server(code: code, message: message)
    }

    static func set(_ simnet: Simnet, _ change: (inout ElectrumSettings) -> Void) async {
        var settings = await simnet.electrumSettings()
        change(&settings)
        await simnet.setElectrumSettings(settings)
    }

    @Test("a lagging index serves headers and histories N blocks back while the node faces keep the tip")
    func lag() async throws {
        let scripthash = try ElectrumHarness.scripthash(Self.payee)
        try await ElectrumHarness.with { simnet, client, inbox in
            let txid = try await simnet.pay(to: Self.payee, amountSat: 30_000)
            let mined = try await simnet.mine(count: 1)
            await Self.set(simnet) { $0.indexLag = 2 }
            let tip = await simnet.tip()
            #expect(tip.hash == mined[0].hash)
            let header = try await client.call("blockchain.headers.subscribe")
            #expect(header["height"]?.int == tip.height - 2)
            await #expect(throws: ElectrumClient.Failure.self) {
                _ = try await client.call("blockchain.block.header", [.number(String(tip.height))])
            }
            // The payment's block is not indexed yet, and the node's mempool no longer holds it.
            let lagging = try await client.call("blockchain.scripthash.get_history", [.string(scripthash)])
            #expect(lagging == .array([]))
            // A block mined meanwhile is announced at the index's height, not the node's.
            let next = try await simnet.mine(count: 1)
            try await eventually("a header notification 2 blocks back") {
                inbox.params(of: "blockchain.headers.subscribe").last?.first?["height"]?.int == next[0].height - 2
            }
            await Self.set(simnet) { $0.indexLag = 0 }
            let caughtUp = try #require(
                try await client.call("blockchain.scripthash.get_history", [.string(scripthash)]).arrayValue
            )
            #expect(caughtUp.map { $0["tx_hash"] } == [.string(txid)])
            #expect(caughtUp.first?["height"]?.int == tip.height)
        }
    }

    @Test("electrs's unavailable index: -32603 for everything but version and headers until switched off")
    func unavailableIndex() async throws {
        let expected = try Self.transcribed("electrs", "index not ready")
        #expect(expected == .server(code: -32603, message: "unavailable index"))
        let scripthash = try ElectrumHarness.scripthash(Self.payee)
        try await ElectrumHarness.with { simnet, client, _ in
            await Self.set(simnet) { $0.indexUnavailable = true }
            _ = try await client.call("server.version", [.string("test"), .string("1.4")])
            let tip = try await client.call("blockchain.headers.subscribe")
            let height = try #require(tip["height"]?.int)
            _ = try await client.call("blockchain.block.header", [.number(String(height))])
            _ = try await client.call("blockchain.block.headers", [.number(String(height)), .number("1")])
            for method in [
                "blockchain.scripthash.subscribe", "blockchain.scripthash.get_history",
                "blockchain.scripthash.get_balance", "blockchain.scripthash.listunspent",
            ] {
                await #expect(throws: expected, "\(method)") {
                    _ = try await client.call(method, [.string(scripthash)])
                }
            }
            for method in ["server.features", "server.ping"] {
                await #expect(throws: expected, "\(method)") { _ = try await client.call(method) }
            }
            await Self.set(simnet) { $0.indexUnavailable = false }
            _ = try await client.call("blockchain.scripthash.get_history", [.string(scripthash)])
            _ = try await client.call("server.ping")
        }
    }

    /// The history limit the tests set: the long address is past it, the payee's one or two payments are not.
    static let limit = 2

    /// The simnet address with the longest history (past ``limit``), and the payee's single payment.
    static func longAndShort(_ simnet: Simnet) async throws -> (long: String, short: String, payment: String) {
        let truth = await simnet.addresses()
        let count = { (truth: AddressTruth) in truth.confirmedTxCount + truth.unconfirmedTxCount }
        let longest = try #require(truth.max { count($0) < count($1) })
        #expect(count(longest) > Self.limit)
        let long = longest.address
        let payment = try await simnet.pay(to: Self.payee, amountSat: 20_000)
        return (long, Self.payee, payment)
    }

    @Test("Fulcrum's max_history: a longer history gets a null status and [] silently; shorter ones are served")
    func fulcrumMaxHistory() async throws {
        try await ElectrumHarness.with(personality: .fulcrum) { simnet, client, _ in
            let (long, short, payment) = try await Self.longAndShort(simnet)
            await Self.set(simnet) { $0.maxHistory = Self.limit }
            let longHash = try ElectrumHarness.scripthash(long)
            #expect(try await client.call("blockchain.scripthash.subscribe", [.string(longHash)]) == .null)
            #expect(try await client.call("blockchain.scripthash.get_history", [.string(longHash)]) == .array([]))
            #expect(try await client.call("blockchain.scripthash.listunspent", [.string(longHash)]) == .array([]))
            #expect(try await client.call("blockchain.scripthash.get_mempool", [.string(longHash)]) == .array([]))
            // The balance is not limited: it is how the provider tells a withheld history from an empty one.
            let truth = try #require(await simnet.addresses().first { $0.address == long })
            let balance = try await client.call("blockchain.scripthash.get_balance", [.string(longHash)])
            #expect(balance["confirmed"]?.int == Int(truth.confirmedBalanceSat))
            let shortHash = try ElectrumHarness.scripthash(short)
            #expect(try await client.call("blockchain.scripthash.subscribe", [.string(shortHash)]) != .null)
            let history = try await client.call("blockchain.scripthash.get_history", [.string(shortHash)])
            #expect(history.arrayValue?.map { $0["tx_hash"] } == [.string(payment)])
            // Lifted, the long history is served again.
            await Self.set(simnet) { $0.maxHistory = nil }
            #expect(try await client.call("blockchain.scripthash.subscribe", [.string(longHash)]) != .null)
        }
    }

    @Test("ElectrumX's history limit: subscribe and get_history answer error 10001 \"history too large\"")
    func electrumxHistoryTooLarge() async throws {
        let expected = try Self.transcribed("ElectrumX", "history longer")
        #expect(expected == .server(code: 10001, message: "history too large"))
        try await ElectrumHarness.with(personality: .electrumx) { simnet, client, _ in
            let (long, short, _) = try await Self.longAndShort(simnet)
            await Self.set(simnet) { $0.maxHistory = Self.limit }
            let version = try await client.call(
                "server.version",
                [.string("test"), .array([.string("1.4"), .string("1.6")])]
            )
            #expect(version == .array([.string("ElectrumX 1.18.0"), .string("1.6")]))
            let longHash = try ElectrumHarness.scripthash(long)
            for method in ["blockchain.scripthash.subscribe", "blockchain.scripthash.get_history"] {
                await #expect(throws: expected, "\(method)") {
                    _ = try await client.call(method, [.string(longHash)])
                }
            }
            let shortHash = try ElectrumHarness.scripthash(short)
            #expect(try await client.call("blockchain.scripthash.subscribe", [.string(shortHash)]) != .null)
        }
        // electrs has no such limit (index_lookup_limit is off by default).
        try await ElectrumHarness.with(personality: .electrs) { simnet, client, _ in
            let (long, _, _) = try await Self.longAndShort(simnet)
            await Self.set(simnet) { $0.maxHistory = Self.limit }
            let longHash = try ElectrumHarness.scripthash(long)
            #expect(try await client.call("blockchain.scripthash.subscribe", [.string(longHash)]) != .null)
        }
    }

    @Test("a method switched missing answers -32601 \"method not found\"")
    func missingMethod() async throws {
        let expected = try Self.transcribed("electrs", "unknown method")
        let scripthash = try ElectrumHarness.scripthash(Self.payee)
        try await ElectrumHarness.with(personality: .fulcrum) { simnet, client, _ in
            await Self.set(simnet) { $0.missingMethods = ["blockchain.scripthash.get_balance"] }
            await #expect(throws: expected) {
                _ = try await client.call("blockchain.scripthash.get_balance", [.string(scripthash)])
            }
            _ = try await client.call("blockchain.scripthash.get_history", [.string(scripthash)])
        }
    }
}
