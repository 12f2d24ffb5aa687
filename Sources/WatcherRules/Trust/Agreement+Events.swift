import Foundation
import WatcherCore
import WatcherJSON

/// `provider.disagreed`, and the trust fields of confirmed and mempool events.
extension Agreement {
    /// Where a disagreement was seen, for its event.
    public struct Scene: Sendable {
        /// The chain.
        public var chain: String
        /// The watch (the event's source).
        public var watch: String
        /// The followed address, when the watch follows addresses.
        public var address: String?
        /// The transaction.
        public var txid: String
        /// The envelope time.
        public var now: Date

        /// Creates a scene.
        public init(chain: String, watch: String, address: String?, txid: String, now: Date) {
            self.chain = chain
            self.watch = watch
            self.address = address
            self.txid = txid
            self.now = now
        }
    }

    /// What `said` shows in an event: `{"provider", "blockHeight", "blockHash", "deltaSat"}`, or with `said`
    /// "mempool" or "not found".
    static func json(_ said: Said) -> JSONValue {
        var members: [JSONValue.Member] = [.init("provider", .string(said.provider))]
        switch said.answer {
        case .block(let height, let hash, let delta):
            members += [
                .init("said", .string("block")),
                .init("blockHeight", .integer(height)),
                .init("blockHash", hash.map(JSONValue.string) ?? .null),
                .init("deltaSat", delta.map { .number("\($0)") } ?? .null),
            ]
        case .mempool: members.append(.init("said", .string("mempool")))
        case .notFound: members.append(.init("said", .string("not found")))
        }
        return .object(members)
    }

    /// The block a claim names, for the fact: its hash, or its height.
    package static func key(_ answer: Answer) -> String {
        guard case .block(let height, let hash, _) = answer else { return "none" }
        return hash ?? "h\(height)"
    }

    /// `provider.disagreed` for the answers about one transaction, when they contradict each other. The fact is
    /// the chain, the address, the txid, the claimant's block and the outcome (withheld, or confirmed in a block):
    /// one event however often it is asked again, and one more when a withheld claim is later confirmed.
    public static func disagreed(_ said: [Said], verdict: Verdict, agree: Int, scene: Scene) -> NewEvent? {
        guard verdict.disagreement, let claim = said.first else { return nil }
        let outcome: String
        if let agreed = verdict.agreed {
            let dissent = said.filter { !same($0.answer, agreed) && $0.answer != .mempool }.map(\.provider)
            outcome =
                "confirmed in block \(key(agreed)) by \(verdict.verifiedBy.joined(separator: ", ")); "
                + "set aside: \(dissent.joined(separator: ", "))"
        } else {
            outcome = "withheld: fewer than \(agree) providers hold the transaction in one block"
        }
        let now = scene.now
        return EventBuilder(now: { now }).make(
            type: "provider.disagreed",
            fact: [
                scene.chain, scene.address ?? "", scene.txid, claim.provider, key(claim.answer),
                verdict.agreed.map { "confirmed \(key($0))" } ?? "withheld",
            ],
            source: scene.watch,
            subject: scene.txid,
            data: [
                .init("chain", .string(scene.chain)),
                .init("txid", .string(scene.txid)),
                .init("address", scene.address.map(JSONValue.string) ?? .null),
                .init("claimedBy", .string(claim.provider)),
                .init("said", .array(said.map(json))),
                .init("agree", .integer(agree)),
                .init("verifiedBy", .array(verdict.verifiedBy.map(JSONValue.string))),
                .init("outcome", .string(outcome)),
            ]
        )
    }
}

extension NewEvent {
    /// The event with `members` appended to its `data` (same id: the fact does not change).
    package func addingData(_ members: [JSONValue.Member]) -> NewEvent {
        guard !members.isEmpty, case .object(var envelope)? = try? JSONValue.parse(body) else { return self }
        for index in envelope.indices where envelope[index].key == "data" {
            if case .object(let data) = envelope[index].value {
                envelope[index] = .init("data", .object(data + members))
            }
        }
        var event = self
        event.body = Array(JSONValue.object(envelope).serialized().utf8)
        return event
    }
}
