import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherTesting

@testable import WatcherSimnet

/// The Electrum face's replies against real servers' recorded bodies and wire lines (Fixtures/SOURCES.md), field by
/// field: the same members, of the same JSON types, and the exact bytes where the recording is an exact wire line.
@Suite("The simnet's Electrum face against recorded bodies")
struct ElectrumParityTests {
    /// One session over a fresh chain (seed 42), answering request objects directly.
    struct Face {
        var session = ElectrumSession()
        let world: ElectrumWorld
        var settings = ElectrumSettings()

        init(
            personality: ElectrumSettings.Personality = .electrs,
            pay: (inout ChainModel) throws -> Void = { _ in }
        ) throws {
            var chain = ChainModel(parameters: ChainParameters(seed: 42, startHeight: 800_000, txsPerBlock: 10))
            try pay(&chain)
            let frozen = chain
            let books = BookBox()
            world = ElectrumWorld(chain: frozen) { books.address($0, frozen) }
            settings.personality = personality
        }

        mutating func line(_ text: String) throws -> String {
            try #require(session.reply(to: try JSONValue.parse(text), world: world, settings: settings).json)
                .serialized()
        }

        mutating func result(_ method: String, _ params: [JSONValue]) throws -> JSONValue {
            let request = JSONValue.object([
                .init("id", .integer(1)), .init("method", .string(method)), .init("params", .array(params)),
            ])
            let reply = try #require(session.reply(to: request, world: world, settings: settings).json)
            return try #require(reply["result"], "\(method): \(reply.serialized())")
        }
    }

    /// A scripthash book shared by the world's resolver.
    final class BookBox: @unchecked Sendable {
        private var book = ScripthashBook()
        func address(_ scripthash: String, _ chain: ChainModel) -> String? { book.address(scripthash, in: chain) }
    }

    /// `value`'s JSON types member by member match `recorded`'s (every recorded member present, same type).
    static func expectShape(_ value: JSONValue, like recorded: JSONValue, _ what: String) {
        #expect(value.keys.sorted() == recorded.keys.sorted(), "\(what): members")
        for member in recorded.members ?? [] {
            #expect(value[member.key]?.typeDescription == member.value.typeDescription, "\(what).\(member.key)")
        }
    }

    @Test("a verbose transaction.get is refused with Blockstream electrs's exact wire line")
    func verboseWire() throws {
        let exchange = try ElectrumHarness.fixtureLines("blockstream-electrs-verbose-unsupported-wire.jsonl")
        var face = try Face()
        let request = try #require(exchange[0]["line"]?.stringValue)
        #expect(try face.line(request) == exchange[1]["line"]?.stringValue)
    }

    @Test("envelopes and notifications have electrs's members in its order")
    func wireShapes() throws {
        let shapes = try ElectrumHarness.fixtureJSON("wire-shapes-transcribed.json")
        var face = try Face()
        let ok = try JSONValue.parse(try face.line(#"{"jsonrpc":"2.0","id":16,"method":"server.ping","params":[]}"#))
        #expect(ok.keys == shapes["response"]?.keys)
        let failed = try JSONValue.parse(
            try face.line(#"{"jsonrpc":"2.0","id":16,"method":"blockchain.scripthash.get_mempool","params":[]}"#)
        )
        #expect(failed == shapes["error_response"])
        _ = try face.result("blockchain.headers.subscribe", [])
        var chain = face.world.chain
        _ = try chain.mine(count: 1)
        var settings = face.settings
        let notes = face.session.notifications(world: ElectrumWorld(chain: chain) { _ in nil }, settings: &settings)
        let header = try #require(notes.first)
        #expect(header.keys == shapes["headers_notification"]?.keys)
        #expect(header["params"]?[0]?.keys == shapes["headers_notification"]?["params"]?[0]?.keys)
        #expect(header["params"]?[0]?["height"]?.int == chain.tip.height)
    }

    @Test("server.version and server.features have the recorded shapes; extra version arguments are ignored")
    func serverShapes() throws {
        var face = try Face(personality: .fulcrum)
        let examples = try #require(try ElectrumHarness.fixtureJSON("server-version-examples.json").arrayValue)
        let withGarbage = try #require(examples[1]["params"]?.arrayValue)
        let version = try face.result("server.version", withGarbage)
        #expect(version.arrayValue?.map(\.typeDescription) == examples[1]["result"]?.arrayValue?.map(\.typeDescription))
        #expect(version[1] == .string("1.6"))
        let features = try face.result("server.features", [])
        Self.expectShape(
            features,
            like: try ElectrumHarness.fixtureJSON("server-features-electrumx-testnet.json"),
            "features"
        )
    }

    @Test("get_balance, get_history (confirmed and mempool), listunspent and get_mempool have the recorded members")
    func scripthashShapes() throws {
        let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
        var face = try Face(personality: .fulcrum) { chain in
            let address = try SimAddressParser.decode(payee)
            _ = try chain.pay(to: address, amountSat: 30_000)
            _ = try chain.mine(count: 1)
            _ = try chain.pay(to: address, amountSat: 20_000)
        }
        let scripthash = JSONValue.string(try ElectrumHarness.scripthash(payee))
        Self.expectShape(
            try face.result("blockchain.scripthash.get_balance", [scripthash]),
            like: try ElectrumHarness.fixtureJSON("scripthash-get-balance.json"),
            "get_balance"
        )
        let history = try #require(try face.result("blockchain.scripthash.get_history", [scripthash]).arrayValue)
        #expect(history.count == 2)
        let confirmed = try #require(try ElectrumHarness.fixtureJSON("scripthash-get-history-confirmed.json")[0])
        let mempool = try #require(try ElectrumHarness.fixtureJSON("scripthash-get-history-mempool.json")[0])
        Self.expectShape(history[0], like: confirmed, "confirmed history entry")
        Self.expectShape(history[1], like: mempool, "mempool history entry")
        let unspent = try #require(try face.result("blockchain.scripthash.listunspent", [scripthash]).arrayValue)
        #expect(unspent.count == 2)
        for entry in unspent {
            Self.expectShape(
                entry,
                like: try #require(try ElectrumHarness.fixtureJSON("scripthash-listunspent.json")[0]),
                "listunspent"
            )
        }
        let waiting = try #require(try face.result("blockchain.scripthash.get_mempool", [scripthash]).arrayValue)
        #expect(waiting.count == 1)
        Self.expectShape(
            waiting[0],
            like: try #require(try ElectrumHarness.fixtureJSON("scripthash-get-mempool.json")[0]),
            "get_mempool"
        )
    }
}
