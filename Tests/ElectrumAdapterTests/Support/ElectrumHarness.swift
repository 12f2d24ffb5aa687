import Foundation
import Synchronization
import Testing
import WatcherBitcoin
import WatcherJSON
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// What a client received without asking: notifications in order, and how the connection ended.
final class ElectrumInbox: Sendable {
    private let notes = Mutex<[(method: String, params: [JSONValue])]>([])
    private let end = Mutex<String?>(nil)

    func append(_ method: String, _ params: [JSONValue]) { notes.withLock { $0.append((method, params)) } }
    func close(_ reason: String) { end.withLock { $0 = reason } }

    /// The notifications of `method` so far.
    func params(of method: String) -> [[JSONValue]] {
        notes.withLock { $0.filter { $0.method == method }.map(\.params) }
    }

    /// Why the connection ended, `nil` while open.
    var closedReason: String? { end.withLock { $0 } }
}

/// Runs tests against a simnet's Electrum face over real loopback TCP, with the adapter's own client.
enum ElectrumHarness {
    /// Starts a simnet (seed 42, 10 transactions a block) with its Electrum face as `personality`, connects a
    /// client, and runs `body`.
    static func with(
        personality: ElectrumSettings.Personality = .electrs,
        _ body: (Simnet, ElectrumClient, ElectrumInbox) async throws -> Void
    ) async throws {
        var configuration = SimnetConfiguration(seed: 42, txsPerBlock: 10)
        configuration.electrumPort = 0
        configuration.electrum.personality = personality
        try await Simnet.with(configuration) { simnet in
            let port = try #require(simnet.electrumPort)
            let inbox = ElectrumInbox()
            let client = try await ElectrumClient.connect(
                host: "127.0.0.1",
                port: port,
                onNotification: { inbox.append($0, $1) },
                onClose: { inbox.close($0) }
            )
            defer { client.close() }
            try await body(simnet, client, inbox)
        }
    }

    /// The scripthash of a mainnet address.
    static func scripthash(_ address: String) throws -> String {
        ElectrumHash.scripthash(scriptPubKey: try #require(BitcoinAddress.scriptPubKey(fromAddress: address)))
    }

    /// A copied fixture (`Fixtures/electrum/<name>`).
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/electrum/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    static func fixtureJSON(_ name: String) throws -> JSONValue {
        try JSONValue.parse(fixture(name))
    }

    /// The lines of a `.jsonl` fixture, parsed.
    static func fixtureLines(_ name: String) throws -> [JSONValue] {
        try String(decoding: fixture(name), as: UTF8.self).split(separator: "\n").map {
            try JSONValue.parse(String($0))
        }
    }
}

extension JSONValue {
    /// The integer, when this is an integral number.
    var int: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The keys of an object, in order.
    var keys: [String] { members?.map(\.key) ?? [] }
}
