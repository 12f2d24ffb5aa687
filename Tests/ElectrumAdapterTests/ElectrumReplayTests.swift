import Testing
import WatcherCore
import WatcherJSON

@testable import ElectrumAdapter

/// The provider against the protocol docs' recorded regtest session (Fixtures/electrum/
/// session-status-example-regtest-transcribed.jsonl), replayed by a loopback server: the raw transactions are
/// decoded locally, their inputs valued from their recorded parents, and the fees come out as the server's own
/// history states them. Only `server.version` and `server.features` are not from the recording (the session starts
/// after them): the features name regtest's genesis.
@Suite("electrum provider on a recorded session")
struct ElectrumReplayTests {
    static func answers() throws -> [String: JSONValue] {
        let lines = try ElectrumHarness.fixtureLines("session-status-example-regtest-transcribed.jsonl")
        var requests: [String: (String, JSONValue)] = [:]
        var answers: [String: JSONValue] = [:]
        for line in lines {
            guard let id = line["id"]?.serialized() else { continue }
            if let method = line["method"]?.stringValue {
                requests[id] = (method, line["params"] ?? .array([]))
            } else if let result = line["result"], let (method, params) = requests[id] {
                answers[ReplayServer.key(method, params)] = result
            }
        }
        answers[
            ReplayServer.key(
                "server.version",
                .array([.string("watcher/0.1"), .array([.string("1.4"), .string("1.6")])])
            )
        ] =
            .array([.string("ElectrumX 1.18.0"), .string("1.4")])
        answers[ReplayServer.key("server.features", .array([]))] = .object([
            .init("genesis_hash", .string("0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206")),
            .init("hash_function", .string("sha256")),
        ])
        return answers
    }

    @Test("mempool transactions of the session: fees equal the history's, values and addresses decoded")
    func transactions() async throws {
        let server = try await ReplayServer(answers: try Self.answers())
        let provider = ElectrumProvider(
            id: "el",
            endpoint: ElectrumEndpoint(host: "127.0.0.1", port: server.port),
            chain: "btc-regtest",
            timeout: .seconds(30),
            maxLineLength: 1 << 20
        )
        let payment = try await provider.transaction("80b19848aed792565ab7c5a79b7c2a00fbf985741579396ebe0ab6098e607311")
        #expect(payment.feeSat == 200)
        #expect(payment.blockHeight == nil)
        // As Bitcoin Core printed the same transaction (bitcoind/getrawtransaction-verbose-regtest-80b19848-mempool).
        #expect(
            payment.outputs == [
                TxEndpoint(address: "bcrt1qn7d2x7272lznt5hhk9s07q3cqnrqljnwladrd3", valueSat: 30_000_000),
                TxEndpoint(address: "bcrt1qgdp7aa38x3p2kpn2s5486mkvvx2sktnmylscfs", valueSat: 79_999_200),
            ]
        )
        // The parent 770f2d43's output 1: the outputs plus the fee.
        #expect(payment.inputs.map(\.valueSat) == [30_000_000 + 79_999_200 + 200])
        let twoParents = try await provider.transaction(
            "e02a1dadfa83b996b24175df807b271ea5d02937ef5b35c195fac1e1bdc3198f"
        )
        #expect(twoParents.feeSat == 300)
        #expect(twoParents.inputs.count == 2)
        await server.close()
    }
}
