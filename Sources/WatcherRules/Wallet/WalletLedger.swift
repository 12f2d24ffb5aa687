import Foundation
import WatcherCore
import WatcherJSON

/// A wallet's balances and `wallet.balance.changed`, as pure rules.
///
/// A wallet's confirmed and unconfirmed balances are the sums of its addresses' known balances (exact satoshi:
/// provider summaries, moved by the exact deltas of scanned and pushed transactions). `wallet.balance.changed` is
/// a fact of the chain, by the rule of ``BalanceStep``: one event per step of each transaction of the wallet
/// (`unconfirmed`, `confirmed` in a block, `reverted` from a block, `replaced`), its amount the transaction's net
/// effect on the wallet (the sum of its amounts at the wallet's addresses), keyed by the wallet, the txid, the
/// step and the block, never by the moment of a poll or how an instance batched its commits. A change without
/// such a transaction (the baseline of the first look, or of an address added to the window) is recorded
/// silently, as for an address.
public enum WalletLedger {
    /// What one commit did to one wallet.
    public struct Change: Sendable, Equatable {
        /// The change of the confirmed balance.
        public var confirmedSat: Int64 = 0
        /// The change of the unconfirmed balance.
        public var unconfirmedSat: Int64 = 0
        /// The steps of the wallet's transactions at each address, in the order recorded.
        public var steps: [BalanceStep] = []

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

    /// Adds one address's commit to `change`: the difference of its known balances, and the steps of the
    /// transactions its events announce (``BalanceStep/steps(_:before:after:)``, as for an address followed
    /// alone).
    public static func record(_ change: inout Change, before: AddressState?, after: AddressState, events: [NewEvent]) {
        let old = contribution(before)
        let new = contribution(after)
        change.confirmedSat += new.confirmed - old.confirmed
        change.unconfirmedSat += new.unconfirmed - old.unconfirmed
        let previous = before ?? AddressState(chain: after.chain, address: after.address)
        change.steps += BalanceStep.steps(events, before: previous, after: after)
    }

    /// Applies a commit's change to the wallet: the balances move, and each step of a transaction of the wallet
    /// (its amounts at the addresses summed) is announced in chain order, except a step that moves nothing.
    /// - Parameter addresses: the wallet's address states after the commit, for the confirmed balance after a
    ///   `confirmed` step (``BalanceStep/balanceAfter(_:in:)-([AddressState])``).
    /// - Parameter amounts: each transaction's net effect on the wallet (``amounts(of:addresses:before:whole:)``),
    ///   which replaces the sum of this commit's steps.
    public static func apply(
        _ state: WalletState,
        _ change: Change,
        addresses: [AddressState],
        amounts: [String: Int64] = [:],
        context: Context
    ) -> (WalletState, [NewEvent]) {
        var next = state
        if change.confirmedSat != 0 || change.unconfirmedSat != 0 {
            next.balanceSat += change.confirmedSat
            next.unconfirmedSat += change.unconfirmedSat
            next.updatedAt = context.now
        }
        var steps = BalanceStep.ordered(change.steps)
        for index in steps.indices { steps[index].amountSat = amounts[steps[index].txid] ?? steps[index].amountSat }
        steps = steps.filter { $0.amountSat != 0 }
        return (
            next, steps.map { balanceChanged($0, balanceSat: BalanceStep.balanceAfter($0, in: addresses), context) }
        )
    }

    /// One wallet step: every field but `fiat` (the instance's latest price) derives from the chain.
    static func balanceChanged(_ step: BalanceStep, balanceSat: Int64?, _ context: Context) -> NewEvent {
        let now = context.now
        return EventBuilder(now: { now }).make(
            type: "wallet.balance.changed",
            fact: [context.chain, context.wallet] + step.fact,
            source: context.wallet,
            subject: context.wallet,
            data: [
                .init("chain", .string(context.chain)),
                .init("wallet", .string(context.wallet)),
                .init("label", .optional(context.label)),
            ] + step.members(balanceSat: balanceSat)
                + [.init("fiat", AddressReducer.fiat(step.amountSat, prices: context.prices))]
        )
    }
}
