import Foundation
import WatcherCore
import WatcherJSON

/// A wallet's balances and `wallet.balance.changed`, as pure rules.
///
/// A wallet's confirmed and unconfirmed balances are the sums of its addresses' known balances (exact satoshi:
/// provider summaries, moved by the exact deltas of scanned and pushed transactions). One commit that changes them
/// while announcing transactions of the wallet emits one `wallet.balance.changed`, whose id derives from the
/// chain: the wallet and each transaction with its new state (`unconfirmed`, `confirmed` in a block, `reverted`
/// from a block, `replaced`) and the wallet address it reached, never from the moment of a poll. A change without such a transaction (the baseline
/// of the first look, or of an address added to the window) is recorded silently, as for an address.
public enum WalletLedger {
    /// What one commit did to one wallet.
    public struct Change: Sendable, Equatable {
        /// The change of the confirmed balance.
        public var confirmedSat: Int64 = 0
        /// The change of the unconfirmed balance.
        public var unconfirmedSat: Int64 = 0
        /// The transactions whose state changed, as `txid|state`.
        public var transitions: Set<String> = []

        /// Creates an empty change.
        public init() {}
    }

    /// What building the event needs.
    public struct Context: Sendable {
        /// The chain.
        public var chain: String
        /// The wallet's id.
        public var wallet: String
        /// Its label.
        public var label: String?
        /// Latest prices, for fiat values.
        public var prices: [PriceQuote]
        /// The time put in the envelope.
        public var now: Date

        /// Creates a context.
        public init(chain: String, wallet: String, label: String?, prices: [PriceQuote] = [], now: Date) {
            self.chain = chain
            self.wallet = wallet
            self.label = label
            self.prices = prices
            self.now = now
        }
    }

    /// An address's share of its wallet's balances: its known confirmed and unconfirmed balances (0 while unknown).
    public static func contribution(_ state: AddressState?) -> (confirmed: Int64, unconfirmed: Int64) {
        (state?.summary?.balanceSat ?? 0, state?.summary?.unconfirmedBalanceSat ?? 0)
    }

    /// The state change of each transaction an address's events announce, as `txid|state|address` (the address
    /// too: one transaction may reach a wallet's balance through several addresses, in one commit or several).
    public static func transitions(_ events: [NewEvent]) -> Set<String> {
        var result: Set<String> = []
        for event in events where event.fact.count >= 3 {
            let (address, txid) = (event.fact[1], event.fact[2])
            let block = event.fact.dropFirst(3).first ?? ""
            switch event.type {
            case "address.tx.unconfirmed": result.insert("\(txid)|unconfirmed|\(address)")
            case "address.tx.confirmed": result.insert("\(txid)|confirmed|\(block)|\(address)")
            case "address.tx.reverted": result.insert("\(txid)|reverted|\(block)|\(address)")
            case "address.tx.replaced": result.insert("\(txid)|replaced|\(address)")
            default: continue
            }
        }
        return result
    }

    /// Adds one address's commit to `change`: the difference of its known balances, and the transactions its
    /// events announce. An address whose balance becomes known only now (a payment scanned in the block that grew
    /// the window to it, before its history check) counts the transactions announced before as changing now, since
    /// that is when the wallet's balance takes them in.
    public static func record(_ change: inout Change, before: AddressState?, after: AddressState, events: [NewEvent]) {
        let old = contribution(before)
        let new = contribution(after)
        change.confirmedSat += new.confirmed - old.confirmed
        change.unconfirmedSat += new.unconfirmed - old.unconfirmed
        // A transaction of an address whose balance is not known yet moves no balance now: it counts when the
        // balance becomes known.
        if after.summary != nil { change.transitions.formUnion(transitions(events)) }
        if let before, before.summary == nil, after.summary != nil {
            for tx in before.txs.values {
                let state = tx.blockHash.map { "confirmed|\($0)" } ?? (tx.blockHeight.map { "confirmed|h\($0)" })
                change.transitions.insert("\(tx.txid)|\(state ?? "unconfirmed")|\(after.address)")
            }
        }
    }

    /// Applies a commit's change to the wallet: the balances move, and when they moved while transactions of the
    /// wallet changed state, `wallet.balance.changed` is announced.
    public static func apply(_ state: WalletState, _ change: Change, context: Context) -> (WalletState, [NewEvent]) {
        guard change.confirmedSat != 0 || change.unconfirmedSat != 0 else { return (state, []) }
        var next = state
        next.balanceSat += change.confirmedSat
        next.unconfirmedSat += change.unconfirmedSat
        next.updatedAt = context.now
        guard !change.transitions.isEmpty else { return (next, []) }
        return (next, [balanceChanged(old: state, new: next, transitions: change.transitions, context: context)])
    }

    static func balanceChanged(old: WalletState, new: WalletState, transitions: Set<String>, context: Context)
        -> NewEvent
    {
        let delta = (new.balanceSat + new.unconfirmedSat) - (old.balanceSat + old.unconfirmedSat)
        func side(_ state: WalletState) -> JSONValue {
            .object([
                .init("balanceSat", .sats(state.balanceSat)),
                .init("balanceBtc", .string(Satoshi.btc(state.balanceSat))),
                .init("unconfirmedSat", .sats(state.unconfirmedSat)),
                .init("unconfirmedBtc", .string(Satoshi.btc(state.unconfirmedSat))),
            ])
        }
        let sorted = transitions.sorted()
        let txids = sorted.map { String($0.prefix { $0 != "|" }) }.reduce(into: [String]()) { list, txid in
            if !list.contains(txid) { list.append(txid) }
        }
        let now = context.now
        return EventBuilder(now: { now }).make(
            type: "wallet.balance.changed",
            fact: [context.chain, context.wallet] + sorted,
            source: context.wallet,
            subject: context.wallet,
            data: [
                .init("chain", .string(context.chain)),
                .init("wallet", .string(context.wallet)),
                .init("label", .optional(context.label)),
                .init("old", side(old)),
                .init("new", side(new)),
                .init("deltaSat", .sats(delta)),
                .init("deltaBtc", .string(Satoshi.btc(delta))),
                .init("confirmedDeltaSat", .sats(new.balanceSat - old.balanceSat)),
                .init("unconfirmedDeltaSat", .sats(new.unconfirmedSat - old.unconfirmedSat)),
                .init("balanceSat", .sats(new.balanceSat)),
                .init("balanceBtc", .string(Satoshi.btc(new.balanceSat))),
                .init("txids", .array(txids.map(JSONValue.string))),
                .init("fiat", AddressReducer.fiat(new.balanceSat, prices: context.prices)),
            ]
        )
    }
}
