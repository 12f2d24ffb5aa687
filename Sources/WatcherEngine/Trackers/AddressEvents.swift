import Foundation
import WatcherCore
import WatcherStorage

/// The pure rules that turn a followed address's observations into events and new state.
enum AddressEvents {
    /// Context for building one address's events.
    struct Subject {
        var chain: String
        var entry: AddressBook.Entry
        var builder: EventBuilder
        var prices: [PriceQuote]
        /// Hashes of recent blocks by height (from the stored header window), for providers that report only a
        /// transaction's block height: ids then name the same block whichever provider answered.
        var blockHashes: [Int: String] = [:]
    }

    /// Fiat values of `sats` at the latest stored prices, e.g. `{"USD": "97.12"}`.
    static func fiat(_ sats: Int64, prices: [PriceQuote]) -> JSONValue {
        var members: [JSONValue.Member] = []
        for quote in prices.sorted(by: { $0.currency < $1.currency }) {
            var value = Decimal(sats) / Decimal(100_000_000) * quote.price
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 2, .bankers)
            members.append(.init(quote.currency, .string("\(rounded)")))
        }
        return .object(members)
    }

    static func txData(_ subject: Subject, _ tx: AddressState.TrackedTx, confirmations: Int, balance: Int64?)
        -> [JSONValue.Member]
    {
        [
            .init("chain", .string(subject.chain)),
            .init("address", .string(subject.entry.address)),
            .init("label", .optional(subject.entry.label)),
            .init("txid", .string(tx.txid)),
            .init("deltaSat", .sats(tx.deltaSat)),
            .init("deltaBtc", .string(Satoshi.btc(tx.deltaSat))),
            .init("blockHeight", tx.blockHeight.map(JSONValue.int) ?? .null),
            .init("blockHash", .optional(tx.blockHash)),
            .init("confirmations", .int(confirmations)),
            .init("balanceSat", balance.map(JSONValue.sats) ?? .null),
            .init("fiat", fiat(tx.deltaSat, prices: subject.prices)),
        ]
    }

    /// The block a tx is in, for ids: its hash, or its height when the provider gives no hash.
    static func blockKey(_ tx: AddressState.TrackedTx) -> String {
        tx.blockHash ?? "h\(tx.blockHeight ?? -1)"
    }

    /// Announces confirmation thresholds crossed at `tipHeight`.
    static func confirmations(_ state: inout AddressState, tipHeight: Int?, subject: Subject) -> [NewEvent] {
        guard let tipHeight else { return [] }
        var events: [NewEvent] = []
        for txid in state.txs.keys.sorted() {
            guard var tx = state.txs[txid], let height = tx.blockHeight, tipHeight >= height else { continue }
            let confirmations = tipHeight - height + 1
            for threshold in subject.entry.thresholds
            where confirmations >= threshold && !tx.announced.contains(threshold) {
                tx.announced.append(threshold)
                events.append(
                    subject.builder.make(
                        type: "address.tx.confirmations",
                        fact: [subject.chain, subject.entry.address, txid, blockKey(tx), "\(threshold)"],
                        source: subject.entry.watch,
                        subject: subject.entry.address,
                        data: txData(subject, tx, confirmations: threshold, balance: state.summary?.balanceSat)
                    )
                )
            }
            state.txs[txid] = tx
        }
        return events
    }

    /// Applies a fresh summary and history (newest first) to the stored state.
    /// - Parameter complete: the history holds every mempool tx (so a missing one really vanished).
    static func apply(
        _ state: inout AddressState,
        summary: AddressSummary,
        history: [AddressTx]?,
        complete: Bool,
        tipHeight: Int?,
        subject: Subject
    ) -> [NewEvent] {
        var events: [NewEvent] = []
        let previous = state.summary
        if let history {
            let seen = Set(history.map(\.txid))
            for item in history.reversed() {
                let known = state.txs[item.txid]
                var tx =
                    known
                    ?? AddressState.TrackedTx(
                        txid: item.txid,
                        blockHeight: nil,
                        blockHash: nil,
                        deltaSat: item.deltaSat
                    )
                tx.deltaSat = item.deltaSat
                if let height = item.blockHeight {
                    let moved =
                        known?.blockHeight != height || (item.blockHash != nil && known?.blockHash != item.blockHash)
                    tx.blockHeight = height
                    tx.blockHash = item.blockHash ?? (moved ? nil : known?.blockHash)
                    if moved { tx.announced = [] }
                    if known == nil || moved {
                        let confirmations = tipHeight.map { max(1, $0 - height + 1) } ?? 1
                        events.append(
                            subject.builder.make(
                                type: "address.tx.confirmed",
                                fact: [subject.chain, subject.entry.address, tx.txid, blockKey(tx)],
                                source: subject.entry.watch,
                                subject: subject.entry.address,
                                data: txData(subject, tx, confirmations: confirmations, balance: summary.balanceSat)
                            )
                        )
                    }
                } else if known == nil {
                    events.append(
                        subject.builder.make(
                            type: "address.tx.unconfirmed",
                            fact: [subject.chain, subject.entry.address, tx.txid],
                            source: subject.entry.watch,
                            subject: subject.entry.address,
                            data: txData(subject, tx, confirmations: 0, balance: summary.balanceSat)
                        )
                    )
                }
                state.txs[item.txid] = tx
            }
            if complete {
                for (txid, tx) in state.txs where tx.blockHeight == nil && !seen.contains(txid) {
                    state.txs[txid] = nil
                    events.append(
                        subject.builder.make(
                            type: "address.tx.replaced",
                            fact: [subject.chain, subject.entry.address, txid],
                            source: subject.entry.watch,
                            subject: subject.entry.address,
                            data: txData(subject, tx, confirmations: 0, balance: summary.balanceSat)
                                + [.init("reason", .string("dropped from the mempool"))]
                        )
                    )
                }
            }
        }
        state.summary = summary
        events += confirmations(&state, tipHeight: tipHeight, subject: subject)
        prune(&state, thresholds: subject.entry.thresholds)
        if let previous,
            previous.balanceSat != summary.balanceSat
                || previous.unconfirmedBalanceSat != summary.unconfirmedBalanceSat
        {
            events.append(balanceChanged(previous: previous, current: summary, subject: subject))
        }
        return events
    }

    /// Most transactions remembered per address. A history request reads the newest 50, so a transaction
    /// older than the newest `keptTransactions` can never come back and be announced again.
    static let keptTransactions = 200

    /// Forgets the oldest fully announced confirmed transactions beyond ``keptTransactions``, so the state of a
    /// busy address stays bounded.
    static func prune(_ state: inout AddressState, thresholds: [Int]) {
        guard state.txs.count > keptTransactions else { return }
        let done = state.txs.values.filter { tx in
            tx.blockHeight != nil && thresholds.allSatisfy { tx.announced.contains($0) }
        }
        let excess = state.txs.count - keptTransactions
        for tx in done.sorted(by: { ($0.blockHeight ?? 0, $0.txid) < ($1.blockHeight ?? 0, $1.txid) }).prefix(excess) {
            state.txs[tx.txid] = nil
        }
    }

    static func balanceChanged(previous: AddressSummary, current: AddressSummary, subject: Subject) -> NewEvent {
        let old = previous.balanceSat ?? 0
        let new = current.balanceSat ?? 0
        let oldUnconfirmed = previous.unconfirmedBalanceSat ?? 0
        let newUnconfirmed = current.unconfirmedBalanceSat ?? 0
        let delta = (new + newUnconfirmed) - (old + oldUnconfirmed)
        func side(_ balance: Int64, _ unconfirmed: Int64) -> JSONValue {
            .object([
                .init("balanceSat", .sats(balance)),
                .init("balanceBtc", .string(Satoshi.btc(balance))),
                .init("unconfirmedSat", .sats(unconfirmed)),
                .init("unconfirmedBtc", .string(Satoshi.btc(unconfirmed))),
            ])
        }
        return subject.builder.make(
            type: "address.balance.changed",
            fact: [
                subject.chain, subject.entry.address, "\(old)", "\(new)", "\(oldUnconfirmed)", "\(newUnconfirmed)",
                "\(current.txCount ?? -1)", "\(current.unconfirmedTxCount ?? -1)",
            ],
            source: subject.entry.watch,
            subject: subject.entry.address,
            data: [
                .init("chain", .string(subject.chain)),
                .init("address", .string(subject.entry.address)),
                .init("label", .optional(subject.entry.label)),
                .init("old", side(old, oldUnconfirmed)),
                .init("new", side(new, newUnconfirmed)),
                .init("deltaSat", .sats(delta)),
                .init("deltaBtc", .string(Satoshi.btc(delta))),
                .init("balanceSat", .sats(new)),
                .init("balanceBtc", .string(Satoshi.btc(new))),
                .init("fiat", fiat(new, prices: subject.prices)),
            ]
        )
    }
}
