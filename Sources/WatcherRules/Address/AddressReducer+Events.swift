import Foundation
import WatcherCore
import WatcherJSON

/// The `address.*` events. Ids come from the fact: the address, the txid, and the block for anything about a
/// confirmation, so a confirmation on a new branch after a reorg is a new fact with a new id.
extension AddressReducer {
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

    /// The block a tx is in, for ids: its hash, or its height when no hash is known.
    static func blockKey(_ tx: AddressState.TrackedTx) -> String {
        tx.blockHash ?? "h\(tx.blockHeight ?? -1)"
    }

    static func txData(_ tx: AddressState.TrackedTx, confirmations: Int, balance: Int64?, context: Context)
        -> [JSONValue.Member]
    {
        var data: [JSONValue.Member] = [
            .init("chain", .string(context.chain)),
            .init("address", .string(context.entry.address)),
            .init("label", .optional(context.entry.label)),
            .init("txid", .string(tx.txid)),
            .init("deltaSat", .sats(tx.deltaSat)),
            .init("deltaBtc", .string(Satoshi.btc(tx.deltaSat))),
            .init("blockHeight", .integer(tx.blockHeight)),
            .init("blockHash", .optional(tx.blockHash)),
            .init("confirmations", .integer(confirmations)),
            .init("balanceSat", balance.map(JSONValue.sats) ?? .null),
            .init("fiat", fiat(tx.deltaSat, prices: context.prices)),
        ]
        if let wallet = context.entry.wallet {
            data.append(.init("wallet", walletData(wallet, label: context.entry.issuedLabel)))
        }
        return data
    }

    /// `data.wallet` of a wallet address's events: `{"id", "branch", "index"}`, and `label` when the address was
    /// handed out with one.
    static func walletData(_ ref: WalletAddressRef, label: String? = nil) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .string(ref.wallet)),
            .init("branch", .string(ref.branch.rawValue)),
            .init("index", .integer(ref.index)),
        ]
        if let label { members.append(.init("label", .string(label))) }
        return .object(members)
    }

    private static func event(
        _ type: String,
        _ fact: [String],
        _ data: [JSONValue.Member],
        context: Context
    ) -> NewEvent {
        context.builder.make(
            type: type,
            fact: [context.chain, context.entry.address] + fact,
            source: context.entry.watch,
            subject: context.entry.address,
            data: data
        )
    }

    static func unconfirmed(_ tx: AddressState.TrackedTx, facts: TxFacts?, balance: Int64?, context: Context)
        -> NewEvent
    {
        event(
            "address.tx.unconfirmed",
            [tx.txid],
            txData(tx, confirmations: 0, balance: balance, context: context) + zeroConf(facts),
            context: context
        )
    }

    /// The zero-conf facts of `address.tx.unconfirmed`, each `null` where the provider cannot tell: facts for a
    /// policy, not a promise (with full-RBF any unconfirmed transaction can be replaced).
    static func zeroConf(_ facts: TxFacts?) -> [JSONValue.Member] {
        [
            .init("feeRate", .optional(facts?.feeRate)),
            .init("feeSat", facts?.feeSat.map(JSONValue.sats) ?? .null),
            .init("vsize", .integer(facts?.vsize)),
            .init("rbf", facts?.signalsRBF.map(JSONValue.bool) ?? .null),
            .init("unconfirmedInputs", .integer(facts?.unconfirmedInputs)),
        ]
    }

    static func confirmed(_ tx: AddressState.TrackedTx, confirmations: Int, balance: Int64?, context: Context)
        -> NewEvent
    {
        event(
            "address.tx.confirmed",
            [tx.txid, blockKey(tx)],
            txData(tx, confirmations: confirmations, balance: balance, context: context),
            context: context
        )
    }

    /// ``confirmed(_:confirmations:balance:context:)`` for a transaction just seen in a block, with its confirmations
    /// at `tipHeight` (at least 1, and 1 when the tip is unknown).
    static func confirmed(_ tx: AddressState.TrackedTx, tipHeight: Int?, balance: Int64?, context: Context) -> NewEvent
    {
        let confirmations = tipHeight.flatMap { tip in tx.blockHeight.map { max(1, tip - $0 + 1) } } ?? 1
        return confirmed(tx, confirmations: confirmations, balance: balance, context: context)
    }

    static func crossed(_ tx: AddressState.TrackedTx, threshold: Int, balance: Int64?, context: Context) -> NewEvent {
        event(
            "address.tx.confirmations",
            [tx.txid, blockKey(tx), "\(threshold)"],
            txData(tx, confirmations: threshold, balance: balance, context: context),
            context: context
        )
    }

    static func reverted(_ tx: AddressState.TrackedTx, balance: Int64?, context: Context) -> NewEvent {
        event(
            "address.tx.reverted",
            [tx.txid, blockKey(tx)],
            txData(tx, confirmations: 0, balance: balance, context: context)
                + [.init("reason", .string("block reorged out"))],
            context: context
        )
    }

    static func replaced(_ tx: AddressState.TrackedTx, _ replacement: Replacement, balance: Int64?, context: Context)
        -> NewEvent
    {
        event(
            "address.tx.replaced",
            [tx.txid],
            txData(tx, confirmations: 0, balance: balance, context: context) + replacementData(replacement),
            context: context
        )
    }

    /// `address.balance.changed` for each step the `address.tx.*` events of one reduction announce (none for a
    /// wallet's address: its wallet announces `wallet.balance.changed`).
    static func balanceChanges(_ events: [NewEvent], before: AddressState, after: AddressState, context: Context)
        -> [NewEvent]
    {
        guard context.entry.wallet == nil else { return [] }
        return BalanceStep.steps(events, before: before, after: after).map { step in
            balanceChanged(step, balanceSat: BalanceStep.balanceAfter(step, in: after), context: context)
        }
    }

    /// One ``BalanceStep``: every field but `fiat` (the instance's latest price) derives from the chain.
    static func balanceChanged(_ step: BalanceStep, balanceSat: Int64?, context: Context) -> NewEvent {
        event(
            "address.balance.changed",
            step.fact,
            [
                .init("chain", .string(context.chain)),
                .init("address", .string(context.entry.address)),
                .init("label", .optional(context.entry.label)),
            ] + step.members(balanceSat: balanceSat) + [.init("fiat", fiat(step.amountSat, prices: context.prices))],
            context: context
        )
    }
}
