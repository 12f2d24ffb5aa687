import WatcherCore
import WatcherJSON

/// An address history checked against the other providers before the reducer sees it.
package struct VerifiedHistory: Sendable {
    /// The history with every withheld confirmation turned back into a mempool transaction, and every agreed one
    /// in the agreed block.
    package var history: [AddressTx]
    /// Mempool lookups likewise.
    package var lookups: [String: ChainTransaction?]
    /// The providers that hold each agreed confirmation.
    package var verifiedBy: [String: [String]] = [:]
    /// The providers that reported each unconfirmed payment asked about (`zeroConf.minSeenBy`), the source first.
    package var seenBy: [String: [String]] = [:]
    /// Transactions whose confirmation is withheld: the address is read again next round.
    package var withheld: Set<String> = []
    /// `provider.disagreed` events.
    package var events: [NewEvent] = []
    /// The provider whose history it is (`data.seenBy` of mempool events).
    package var source: String?

    /// A history from `source`, nothing checked yet.
    package init(history: [AddressTx], lookups: [String: ChainTransaction?], source: String?) {
        self.history = history
        self.lookups = lookups
        self.source = source
    }

    /// Whether `stored` holds `txid` in the block at `height` already (the same hash where both name one): its
    /// confirmation announces nothing new, so there is nothing to check.
    package static func held(_ txid: String, height: Int, hash: String?, in stored: AddressState?) -> Bool {
        guard let known = stored?.txs[txid], known.blockHeight == height else { return false }
        return hash == nil || known.blockHash == nil || known.blockHash == hash
    }

    /// The block an agreed answer places a transaction in: none when the confirmation is withheld (the transaction
    /// stays in the mempool until the providers agree).
    package static func block(_ agreed: Agreement.Answer?) -> (height: Int?, hash: String?) {
        guard case .block(let height, let hash, _)? = agreed else { return (nil, nil) }
        return (height, hash)
    }

    /// Records on `state` which providers held each agreed confirmation (what a payment request's `verifiedBy`
    /// names), and which reported each unconfirmed payment asked about (its `seenBy`).
    package func stamp(_ state: inout AddressState) {
        for (txid, by) in verifiedBy where state.txs[txid]?.blockHeight != nil {
            state.txs[txid]?.verifiedBy = by
        }
        for (txid, by) in seenBy where state.txs[txid] != nil {
            state.txs[txid]?.seenBy = by
        }
    }

    /// `events` with `data.verifiedBy` on confirmations and `data.seenBy` on mempool payments, and the
    /// disagreements after them.
    package func decorate(_ reduced: [NewEvent]) -> [NewEvent] {
        reduced.map { event in
            let txid = event.fact.count > 2 ? event.fact[2] : ""
            switch event.type {
            case "address.tx.confirmed":
                guard let by = verifiedBy[txid] else { return event }
                return event.addingData([.init("verifiedBy", .array(by.map(JSONValue.string)))])
            case "address.tx.unconfirmed":
                guard let by = seenBy[txid] ?? source.map({ [$0] }) else { return event }
                return event.addingData([.init("seenBy", .array(by.map(JSONValue.string)))])
            default:
                return event
            }
        } + events
    }
}
