import Foundation
import WatcherCore
import WatcherJSON

/// The pure rules of a chain's tip: what a walk's ``ChainSync/Outcome`` does to the ``ChainMemory``, and which
/// `block.*` events it announces. Followed transactions are reverted and confirmed by ``AddressReducer`` and
/// ``TxReducer`` from the same outcome.
public enum ChainReducer {
    /// What the reducer needs besides the memory and the outcome.
    public struct Settings: Sendable {
        /// The chain, e.g. `btc`.
        public var chain: String
        /// The `blocks` watch id (or the implicit tip tracker's), for event sources.
        public var watch: String
        /// Whether `block.new` and `block.reorged` are announced (`false` for the implicit tip tracker).
        public var announce: Bool
        /// Headers kept (`storage.keepHeaders`).
        public var keepHeaders: Int
        /// Heights of hashes kept for the fork walk.
        public var hashDepth: Int
        /// Most missed blocks announced below the new tip (`maxBackfill`); `nil`: every fetched block. A scanned
        /// chain fetches more blocks than it announces.
        public var maxAnnounced: Int?

        /// Creates settings.
        public init(chain: String, watch: String, announce: Bool, keepHeaders: Int, hashDepth: Int? = nil) {
            self.chain = chain
            self.watch = watch
            self.announce = announce
            self.keepHeaders = keepHeaders
            self.hashDepth = hashDepth ?? max(keepHeaders, ChainMemory.minimumHashDepth)
        }
    }

    /// Applies `outcome` to `memory`.
    /// - Returns: the new memory and the block events, in order (the reorg first, then new blocks, lowest first).
    public static func reduce(_ memory: ChainMemory, _ outcome: ChainSync.Outcome, settings: Settings, now: Date)
        -> (ChainMemory, [NewEvent])
    {
        guard !outcome.unchanged else { return (memory, []) }
        let builder = EventBuilder(now: { now })
        var next = memory
        var events: [NewEvent] = []
        if let fork = outcome.fork {
            next.forget(above: fork)
            if settings.announce {
                events.append(reorged(memory, outcome, fork: fork, settings: settings, builder: builder))
            }
        }
        for (height, hash) in outcome.learned {
            next.hashes[height] = hash
        }
        let lowestAnnounced = outcome.tip.height - (settings.maxAnnounced ?? .max / 2)
        for header in outcome.headers {
            next.record(header)
            if settings.announce, header.height >= lowestAnnounced {
                events.append(blockNew(header, settings: settings, builder: builder))
            }
        }
        next.tip = outcome.tip
        next.hashes[outcome.tip.height] = outcome.tip.hash
        next.trim(headerCount: settings.keepHeaders, hashDepth: settings.hashDepth)
        return (next, events)
    }

    /// The height above which followed transactions are checked against the new chain after `outcome`: the fork
    /// of a reorg, else the old tip (blocks above it are new, and a transaction recorded there by an address poll
    /// ahead of the walk may sit in a block that is already gone). `nil` when nothing changed or on the first poll.
    public static func revertFloor(_ memory: ChainMemory, _ outcome: ChainSync.Outcome) -> Int? {
        guard !outcome.unchanged else { return nil }
        return outcome.fork ?? memory.tip?.height
    }

    static func blockNew(_ header: BlockHeader, settings: Settings, builder: EventBuilder) -> NewEvent {
        builder.make(
            type: "block.new",
            fact: [settings.chain, "\(header.height)", header.hash],
            source: settings.watch,
            subject: header.hash,
            data: [
                .init("chain", .string(settings.chain)),
                .init("height", .integer(header.height)),
                .init("hash", .string(header.hash)),
                .init("time", .string(EventBuilder.timestamp(header.time))),
                .init("txCount", .integer(header.txCount)),
                .init("merkleRoot", .string(header.merkleRoot)),
                .init("nonce", .integer(header.nonce)),
                .init("previousHash", .optional(header.previousHash)),
            ]
        )
    }

    static func reorged(
        _ memory: ChainMemory,
        _ outcome: ChainSync.Outcome,
        fork: Int,
        settings: Settings,
        builder: EventBuilder
    ) -> NewEvent {
        func refs(_ blocks: [BlockRef]) -> JSONValue {
            .array(blocks.map { .object([.init("height", .integer($0.height)), .init("hash", .string($0.hash))]) })
        }
        let depth = (memory.tip?.height ?? fork) - fork
        return builder.make(
            type: "block.reorged",
            fact: [settings.chain, "\(fork)"] + outcome.orphaned.map(\.hash) + [outcome.tip.hash],
            source: settings.watch,
            subject: outcome.orphaned.last?.hash ?? "",
            data: [
                .init("chain", .string(settings.chain)),
                .init("forkHeight", .integer(fork)),
                .init("depth", .integer(depth)),
                .init("beyondMemory", .bool(outcome.beyondMemory)),
                .init("orphaned", refs(outcome.orphaned)),
                .init("replacement", refs(outcome.headers.map(\.ref))),
            ]
        )
    }
}
