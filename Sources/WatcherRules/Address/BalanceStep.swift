import WatcherCore

/// One transaction changing state at one address, as it moves the address's balances: a fact of the chain, the
/// same whoever observes it and whichever provider is asked.
///
/// A transaction's states are `unconfirmed` → `confirmed` in a block → (`reverted` from that block → `confirmed`
/// in another)… or `unconfirmed` → `replaced`. Each step moves the balances by amounts fixed by the step alone:
///
/// | step | confirmed | unconfirmed |
/// | --- | --- | --- |
/// | `unconfirmed` | 0 | +amount |
/// | `confirmed` (block) | +amount | −amount |
/// | `reverted` (block) | −amount | +amount |
/// | `replaced` | 0 | −amount |
///
/// A transaction first seen in a block enters as `unconfirmed` first, so an instance that saw it in the mempool
/// and one that did not announce the same steps with the same amounts: the union of any instances' steps adds up
/// to the balances (minus the silent baseline), one row per step.
public struct BalanceStep: Sendable, Hashable {
    /// The state a step moves a transaction to.
    public enum Kind: String, Sendable, Hashable {
        case unconfirmed, confirmed, reverted, replaced
    }

    /// The txid.
    public var txid: String
    /// The state the transaction moves to.
    public var kind: Kind
    /// The block it is confirmed in or reverted from (`confirmed`, `reverted`).
    public var blockHeight: Int?
    /// That block's hash, when known.
    public var blockHash: String?
    /// The transaction's net effect on the address.
    public var amountSat: Int64

    /// The change of the confirmed balance.
    public var confirmedDeltaSat: Int64 {
        switch kind {
        case .confirmed: amountSat
        case .reverted: -amountSat
        case .unconfirmed, .replaced: 0
        }
    }

    /// The change of the unconfirmed balance.
    public var unconfirmedDeltaSat: Int64 {
        switch kind {
        case .unconfirmed, .reverted: amountSat
        case .confirmed, .replaced: -amountSat
        }
    }

    /// The change of the total (confirmed + unconfirmed).
    public var deltaSat: Int64 { confirmedDeltaSat + unconfirmedDeltaSat }

    /// The identifying fields after the chain and the address: the txid, the state, and the block for a
    /// `confirmed` or `reverted` step (its hash, else `h<height>`, as the `address.tx.*` ids).
    public var fact: [String] {
        switch kind {
        case .unconfirmed, .replaced: [txid, kind.rawValue]
        case .confirmed, .reverted: [txid, kind.rawValue, blockHash ?? "h\(blockHeight ?? -1)"]
        }
    }

    /// Creates a step.
    public init(txid: String, kind: Kind, blockHeight: Int? = nil, blockHash: String? = nil, amountSat: Int64) {
        self.txid = txid
        self.kind = kind
        self.blockHeight = blockHeight
        self.blockHash = blockHash
        self.amountSat = amountSat
    }

    /// The steps of the transactions a reducer's `address.tx.*` events announce, from the state before and after
    /// them, in chain order: reverts first (the old branch leaves), then confirmations by block height and txid
    /// (a transaction first seen in a block enters as `unconfirmed` just before), then the mempool by txid, then
    /// replacements by txid.
    public static func steps(_ events: [NewEvent], before: AddressState, after: AddressState) -> [BalanceStep] {
        var reverted: [BalanceStep] = []
        var confirmed: [[BalanceStep]] = []
        var mempool: [BalanceStep] = []
        var replaced: [BalanceStep] = []
        for event in events where event.fact.count >= 3 {
            let txid = event.fact[2]
            switch event.type {
            case "address.tx.unconfirmed":
                guard let tx = after.txs[txid] else { continue }
                mempool.append(BalanceStep(txid: txid, kind: .unconfirmed, amountSat: tx.deltaSat))
            case "address.tx.confirmed":
                guard let tx = after.txs[txid] else { continue }
                let step = BalanceStep(
                    txid: txid,
                    kind: .confirmed,
                    blockHeight: tx.blockHeight,
                    blockHash: tx.blockHash,
                    amountSat: tx.deltaSat
                )
                let entering = BalanceStep(txid: txid, kind: .unconfirmed, amountSat: tx.deltaSat)
                confirmed.append(before.txs[txid] == nil ? [entering, step] : [step])
            case "address.tx.reverted":
                guard let tx = before.txs[txid] ?? after.txs[txid] else { continue }
                let block = event.fact.count > 3 ? event.fact[3] : nil
                reverted.append(
                    BalanceStep(
                        txid: txid,
                        kind: .reverted,
                        blockHeight: tx.blockHeight,
                        blockHash: block.flatMap { $0.hasPrefix("h") ? nil : $0 } ?? tx.blockHash,
                        amountSat: tx.deltaSat
                    )
                )
            case "address.tx.replaced":
                guard let tx = before.txs[txid] else { continue }
                replaced.append(BalanceStep(txid: txid, kind: .replaced, amountSat: tx.deltaSat))
            default:
                continue
            }
        }
        return ordered(reverted + confirmed.flatMap { $0 } + mempool + replaced)
    }

    /// `steps` with the same fact summed into one (the steps of one transaction at several addresses of a
    /// wallet: its net effect on the wallet), in chain order: reverts first (the old branch leaves), then
    /// confirmations by block height and txid (a transaction's `unconfirmed` step just before its `confirmed`
    /// one), then the mempool by txid, then replacements by txid. Steps whose amounts sum to 0 are kept: the
    /// caller decides.
    public static func ordered(_ steps: [BalanceStep]) -> [BalanceStep] {
        var merged: [[String]: BalanceStep] = [:]
        for step in steps {
            if merged[step.fact] == nil {
                merged[step.fact] = step
            } else {
                merged[step.fact]?.amountSat += step.amountSat
            }
        }
        var confirming: [String: Int] = [:]
        for step in merged.values where step.kind == .confirmed { confirming[step.txid] = step.blockHeight ?? .max }
        func key(_ step: BalanceStep) -> (Int, Int, String, Int) {
            switch step.kind {
            case .reverted: (0, step.blockHeight ?? .max, step.txid, 0)
            case .confirmed: (1, step.blockHeight ?? .max, step.txid, 1)
            case .unconfirmed:
                confirming[step.txid].map { (1, $0, step.txid, 0) } ?? (2, .max, step.txid, 0)
            case .replaced: (3, .max, step.txid, 0)
            }
        }
        return merged.values.sorted { key($0) < key($1) }
    }

    /// Chain order: by block height, then txid within a block (providers do not all give the position in the
    /// block, and every instance must agree); unconfirmed last, by txid.
    static func chainOrder(_ a: BalanceStep, _ b: BalanceStep) -> Bool {
        (a.blockHeight ?? .max, a.txid) < (b.blockHeight ?? .max, b.txid)
    }

    /// The confirmed balance right after a `confirmed` step, from the chain: the address's confirmed balance in
    /// `state` less every confirmed transaction after it in chain order. `nil` for other steps, or when the
    /// balance is not known.
    public static func balanceAfter(_ step: BalanceStep, in state: AddressState) -> Int64? {
        balanceAfter(step, in: [state])
    }

    /// The confirmed balance of several addresses together (a wallet's) right after a `confirmed` step: their
    /// confirmed balances less every confirmed transaction after it in chain order, at each of them. `nil` for
    /// other steps, or when one of the balances is not known.
    public static func balanceAfter(_ step: BalanceStep, in states: [AddressState]) -> Int64? {
        guard step.kind == .confirmed, let height = step.blockHeight else { return nil }
        var total: Int64 = 0
        for state in states {
            guard let balance = state.summary?.balanceSat else { return nil }
            let later = state.txs.values.filter { tx in
                guard let other = tx.blockHeight else { return false }
                return (other, tx.txid) > (height, step.txid)
            }
            total += later.reduce(balance) { $0 - $1.deltaSat }
        }
        return total
    }
}
