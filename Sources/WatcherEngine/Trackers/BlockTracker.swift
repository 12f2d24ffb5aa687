import Logging
import WatcherCore
import WatcherStorage

/// Follows a chain's tip: announces new blocks in order, detects reorgs against the stored window of recent
/// headers, reverts followed transactions in orphaned blocks, and re-evaluates confirmation thresholds on every
/// new tip (with no extra requests).
struct BlockTracker: Sendable {
    let chain: String
    let watchID: String
    let providers: [String]
    let context: EngineContext
    /// Most missed blocks announced after downtime.
    let maxBackfill: Int
    /// `false` for the implicit tip tracker of address and tx watches: it keeps the tip, announces no blocks.
    let announce: Bool
    /// The address book, for reverts and confirmations.
    let book: @Sendable () throws -> AddressBook

    func poll() async throws {
        let tip = try await context.ask(providers, .tip) { try await $0.tip() }
        let chain = self.chain
        let keep = context.keepHeaders
        let (storedTip, window) = try context.store.read { txn in
            (try txn.tip(chain: chain), try txn.recentHeaders(chain: chain, limit: keep))
        }
        guard storedTip?.hash != tip.hash else { return }
        var fetched: [Int: BlockHeader] = [:]
        func header(_ height: Int, _ priority: RequestPriority) async throws -> BlockHeader {
            if let cached = fetched[height] { return cached }
            let block = try await context.ask(providers, priority) { try await $0.block(.height(height)) }
            fetched[height] = block
            return block
        }

        // Walk back from the lower of the two tips until the stored hash matches the provider's.
        let byHeight = Dictionary(window.map { ($0.height, $0) }) { first, _ in first }
        var forkHeight = storedTip.map { min($0.height, tip.height) } ?? tip.height
        if storedTip != nil {
            let lowest = window.last?.height ?? forkHeight
            while forkHeight >= lowest, let stored = byHeight[forkHeight] {
                let current = forkHeight == tip.height ? tip.hash : try await header(forkHeight, .tip).hash
                if stored.hash == current { break }
                forkHeight -= 1
            }
            if forkHeight < lowest {
                context.logger.error(
                    "reorg deeper than the stored window; announcing from the window's start",
                    metadata: ["chain": "\(chain)", "window": "\(window.count)"]
                )
            }
        } else {
            forkHeight = tip.height - 1
        }
        if let storedTip, tip.height < storedTip.height, forkHeight == tip.height {
            // The provider is behind us (e.g. a lagging failover), not on another branch: nothing to do.
            return
        }
        let orphaned = window.filter { $0.height > forkHeight }.sorted { $0.height < $1.height }
        var first = forkHeight + 1
        if tip.height - first + 1 > maxBackfill {
            context.logger.warning(
                "missed more blocks than maxBackfill; announcing the newest only",
                metadata: ["chain": "\(chain)", "missed": "\(tip.height - first + 1)", "maxBackfill": "\(maxBackfill)"]
            )
            first = tip.height - maxBackfill + 1
        }
        var newHeaders: [BlockHeader] = []
        for height in max(first, 0)...tip.height {
            newHeaders.append(try await header(height, height == tip.height ? .tip : .backfill))
        }
        try await commit(tip: tip, forkHeight: forkHeight, orphaned: orphaned, newHeaders: newHeaders)
    }

    func commit(tip: BlockRef, forkHeight: Int, orphaned: [BlockHeader], newHeaders: [BlockHeader]) async throws {
        let chain = self.chain
        let watchID = self.watchID
        let builder = context.events
        let keep = context.keepHeaders
        let announce = self.announce
        let book = try self.book()
        try await context.commit { txn in
            var events: [NewEvent] = []
            if !orphaned.isEmpty {
                try txn.removeHeaders(chain: chain, from: forkHeight + 1)
                if announce { events.append(Self.reorged(chain, watchID, forkHeight, orphaned, newHeaders, builder)) }
                events += try Self.revert(txn, chain: chain, orphaned: orphaned, book: book, builder: builder)
            }
            for header in newHeaders {
                try txn.putHeader(chain: chain, header, keep: keep)
                if announce { events.append(Self.blockNew(chain, watchID, header, builder)) }
            }
            try txn.setTip(chain: chain, tip)
            let prices = try txn.prices()
            for var state in try txn.addressStates(chain: chain) {
                guard let entry = book.entries[state.address] else { continue }
                let subject = AddressEvents.Subject(chain: chain, entry: entry, builder: builder, prices: prices)
                let crossed = AddressEvents.confirmations(&state, tipHeight: tip.height, subject: subject)
                if !crossed.isEmpty { try txn.putAddressState(state) }
                events += crossed
            }
            return events
        }
    }

    static func blockNew(_ chain: String, _ watch: String, _ header: BlockHeader, _ builder: EventBuilder) -> NewEvent {
        builder.make(
            type: "block.new",
            fact: [chain, "\(header.height)", header.hash],
            source: watch,
            subject: header.hash,
            data: [
                .init("chain", .string(chain)),
                .init("height", .int(header.height)),
                .init("hash", .string(header.hash)),
                .init("time", .string(EventBuilder.timestamp(header.time))),
                .init("txCount", .int(header.txCount)),
                .init("merkleRoot", .string(header.merkleRoot)),
                .init("nonce", .int(header.nonce)),
                .init("previousHash", .optional(header.previousHash)),
            ]
        )
    }

    static func reorged(
        _ chain: String,
        _ watch: String,
        _ forkHeight: Int,
        _ orphaned: [BlockHeader],
        _ replacement: [BlockHeader],
        _ builder: EventBuilder
    ) -> NewEvent {
        func refs(_ headers: [BlockHeader]) -> JSONValue {
            .array(headers.map { .object([.init("height", .int($0.height)), .init("hash", .string($0.hash))]) })
        }
        return builder.make(
            type: "block.reorged",
            fact: [chain, "\(forkHeight)"] + orphaned.map(\.hash) + [replacement.last?.hash ?? ""],
            source: watch,
            subject: orphaned.last?.hash ?? "",
            data: [
                .init("chain", .string(chain)),
                .init("forkHeight", .int(forkHeight)),
                .init("depth", .int(orphaned.count)),
                .init("orphaned", refs(orphaned)),
                .init("replacement", refs(replacement)),
            ]
        )
    }

    /// `address.tx.reverted` for every followed tx in an orphaned block; the tx goes back to unconfirmed until
    /// a later poll finds it again.
    static func revert(
        _ txn: StoreTransaction<WriteTransaction>,
        chain: String,
        orphaned: [BlockHeader],
        book: AddressBook,
        builder: EventBuilder
    ) throws -> [NewEvent] {
        let hashes = Set(orphaned.map(\.hash))
        let heights = Set(orphaned.map(\.height))
        let prices = try txn.prices()
        var events: [NewEvent] = []
        for var state in try txn.addressStates(chain: chain) {
            var touched = false
            for (txid, tx) in state.txs {
                guard let height = tx.blockHeight else { continue }
                let inOrphan = tx.blockHash.map(hashes.contains) ?? heights.contains(height)
                guard inOrphan else { continue }
                touched = true
                if let entry = book.entries[state.address] {
                    let subject = AddressEvents.Subject(chain: chain, entry: entry, builder: builder, prices: prices)
                    events.append(
                        builder.make(
                            type: "address.tx.reverted",
                            fact: [chain, state.address, txid, AddressEvents.blockKey(tx)],
                            source: entry.watch,
                            subject: state.address,
                            data: AddressEvents.txData(
                                subject,
                                tx,
                                confirmations: 0,
                                balance: state.summary?.balanceSat
                            )
                                + [.init("reason", .string("block reorged out"))]
                        )
                    )
                }
                state.txs[txid] = AddressState.TrackedTx(
                    txid: txid,
                    blockHeight: nil,
                    blockHash: nil,
                    deltaSat: tx.deltaSat
                )
            }
            if touched {
                // Force a history fetch on the next poll: the summary is no longer trusted.
                state.summary?.txCount = nil
                try txn.putAddressState(state)
            }
        }
        return events
    }
}
