import AsyncHTTPClient
import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// What the agree suites share: three simnets told the same story, and the event log read for their verdicts.
enum AgreeHarness {
    /// The same control call on each simnet; the answers, which must agree while the simnets do.
    static func each<T: Sendable>(_ simnets: [Simnet], _ call: (Simnet) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for simnet in simnets { results.append(try await call(simnet)) }
        return results
    }

    /// Every event of `type`, parsed.
    static func events(_ store: Store, _ type: String) throws -> [JSONValue] {
        try EngineHarness.events(store).filter { $0["type"] == .string(type) }
    }

    /// The providers an event's `data.verifiedBy` names. Which of them claimed and which verified depends on whose
    /// round saw the block first (the provider in charge, or the second opinion's), so tests compare the set.
    static func verifiers(_ event: JSONValue) -> Set<String> {
        Set(event["data"]?["verifiedBy"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    /// Followed by a watch whose provider in charge is honest (the liar is asked second).
    static let honestAddress = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    /// The txid of the first payment the test makes, worked out on a model started like the simnets (same seed,
    /// same call): followed by a `tx` watch from the start.
    static func firstPayment() throws -> String {
        var model = ChainModel(parameters: EngineHarness.quiet.chain)
        return try model.pay(to: SimAddressParser.decode(honestAddress), amountSat: 50_000).txid
    }
}
