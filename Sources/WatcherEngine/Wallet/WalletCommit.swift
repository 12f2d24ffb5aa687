import Foundation
import WatcherCore
import WatcherRules
import WatcherStorage

/// The wallet side of one write transaction: the states of the wallets touched, their windows grown and indexed
/// (in the same transaction as the events that used the addresses), their balances and `wallet.balance.changed`.
///
/// Drivers record each wallet address's state before and after the address reducer, mark what they checked, then
/// call ``finish()`` once.
package struct WalletCommit {
    let chain: String
    let book: WalletBook
    let txn: StoreTransaction<WriteTransaction>
    let now: Date
    let prices: [PriceQuote]
    /// Scripts the driver derived already (while matching), reused instead of derived again.
    var derived: [WalletAddressRef: [UInt8]] = [:]
    private var states: [String: WalletState] = [:]
    private var stored: [String: WalletState] = [:]
    private var changes: [String: WalletLedger.Change] = [:]
    /// The wallet addresses' states after this transaction, by wallet and address.
    private var afters: [String: [String: AddressState]] = [:]
    /// The same addresses' states before it.
    private var befores: [String: [String: AddressState]] = [:]
    /// A transaction's whole effect on a wallet, by wallet and txid, where the driver read the whole transaction
    /// (``WalletLedger/amount(of:addresses:)``): it wins over the sum of the addresses' amounts, which misses an
    /// address read before the transaction reached the provider.
    var wholeAmounts: [String: [String: Int64]] = [:]

    init(
        chain: String,
        book: WalletBook,
        txn: StoreTransaction<WriteTransaction>,
        now: Date,
        prices: [PriceQuote],
        derived: [WalletAddressRef: [UInt8]] = [:]
    ) {
        self.chain = chain
        self.book = book
        self.txn = txn
        self.now = now
        self.prices = prices
        self.derived = derived
    }

    /// The wallet side of `txn`, at the prices stored in it.
    init(
        chain: String,
        book: WalletBook,
        txn: StoreTransaction<WriteTransaction>,
        now: Date,
        derived: [WalletAddressRef: [UInt8]] = [:]
    ) throws {
        self.init(chain: chain, book: book, txn: txn, now: now, prices: try txn.prices(), derived: derived)
    }

    /// The label `wallets next --label` gave the address at `ref`, if it was handed out with one.
    /// The address book entry of a stored address: its wallet's, with the label it was handed out with, when it
    /// sits in a followed wallet; else `followed` (the config's or the CLI's entry, if any).
    mutating func entry(of stored: AddressState, or followed: FollowedAddress?) throws -> FollowedAddress? {
        guard let ref = stored.wallet, let wallet = book.wallets[ref.wallet], let walletState = try state(ref.wallet)
        else { return followed }
        return wallet.entry(
            address: stored.address,
            ref: ref,
            since: walletState.since,
            issuedLabel: try issuedLabel(ref)
        )
    }

    func issuedLabel(_ ref: WalletAddressRef) throws -> String? {
        guard ref.branch == .receive else { return nil }
        return try txn.issuedAddress(chain: chain, wallet: ref.wallet, index: ref.index)?.label
    }

    /// A wallet address's state for its reducer, and its entry: `stored` with `ref` kept (or set), or a new state,
    /// which starts from a zero balance when the window checked the address and found it unused. `nil` when the
    /// wallet is not followed or has no state yet.
    mutating func address(_ address: String, ref: WalletAddressRef, stored: AddressState?) throws
        -> (state: AddressState, entry: AddressBook.Entry)?
    {
        var state = stored ?? AddressState(chain: chain, address: address)
        let ref = state.wallet ?? ref
        guard let wallet = book.wallets[ref.wallet], let walletState = try self.state(ref.wallet) else { return nil }
        state.wallet = ref
        if stored == nil, ref.index <= walletState[ref.branch].checkedUpTo ?? -1 { state.summary = .empty(address) }
        let entry = wallet.entry(
            address: address,
            ref: ref,
            since: walletState.since,
            issuedLabel: try issuedLabel(ref)
        )
        return (state, entry)
    }

    /// The stored state of the address at `ref` of `wallet`, and the state (the stored one, or a new one) and entry
    /// its reducer takes, for a pass that read it as that address (the ref is the one given, unlike
    /// ``address(_:ref:stored:)``).
    mutating func placed(_ address: String, ref: WalletAddressRef, wallet: FollowedWallet)
        throws -> (stored: AddressState?, state: AddressState, entry: FollowedAddress)
    {
        let stored = try txn.addressState(chain: chain, address: address)
        var state = stored ?? AddressState(chain: chain, address: address)
        state.wallet = ref
        let since = try self.state(ref.wallet)?.since
        let entry = wallet.entry(address: address, ref: ref, since: since, issuedLabel: try issuedLabel(ref))
        return (stored, state, entry)
    }

    /// The wallet's state in this transaction, `nil` when it has none yet (its driver has not prepared it).
    mutating func state(_ wallet: String) throws -> WalletState? {
        if let state = states[wallet] { return state }
        guard let state = try txn.walletState(chain: chain, wallet: wallet),
            state.descriptor == book.wallets[wallet]?.normalized
        else { return nil }
        states[wallet] = state
        stored[wallet] = state
        return state
    }

    /// Records a wallet address's commit: the address is used when it has any transaction, and its balance change
    /// and announced transactions count for the wallet.
    mutating func record(_ ref: WalletAddressRef, before: AddressState?, after: AddressState, events: [NewEvent])
        throws
    {
        guard var state = try state(ref.wallet) else { return }
        if !after.txs.isEmpty || (after.summary?.txCount ?? 0) + (after.summary?.unconfirmedTxCount ?? 0) > 0 {
            state[ref.branch] = WalletWindow.used(state[ref.branch], index: ref.index)
        }
        states[ref.wallet] = state
        afters[ref.wallet, default: [:]][after.address] = after
        if let before, befores[ref.wallet]?[before.address] == nil {
            befores[ref.wallet, default: [:]][before.address] = before
        }
        WalletLedger.record(&changes[ref.wallet, default: .init()], before: before, after: after, events: events)
    }

    /// Records indices used (matched in a block) without an address state change.
    mutating func used(_ ref: WalletAddressRef) throws {
        guard var state = try state(ref.wallet) else { return }
        state[ref.branch] = WalletWindow.used(state[ref.branch], index: ref.index)
        states[ref.wallet] = state
    }

    /// Records that every index of `branch` up to `index` had its history checked.
    mutating func checked(_ wallet: String, _ branch: WalletBranch, upTo index: Int) throws {
        guard var state = try state(wallet) else { return }
        state[branch] = WalletWindow.checked(state[branch], upTo: min(index, state[branch].derivedUpTo ?? index))
        states[wallet] = state
    }

    /// Grows every touched window to its gap (adding the scripts to the index), applies the balance changes and
    /// stores the states.
    /// - Returns: the `wallet.balance.changed` events.
    mutating func finish() throws -> [NewEvent] {
        var events: [NewEvent] = []
        for id in states.keys.sorted() {
            guard var state = states[id], let wallet = book.wallets[id] else { continue }
            try Self.grow(&state, wallet: wallet, txn: txn, derived: derived)
            if let change = changes[id] {
                let context = WalletLedger.Context(
                    chain: chain,
                    wallet: id,
                    label: wallet.label,
                    prices: prices,
                    now: now
                )
                let emitted: [NewEvent]
                let addresses = change.steps.isEmpty ? [] : try addressStates(id)
                let amounts = WalletLedger.amounts(
                    of: change.steps,
                    addresses: addresses,
                    before: befores[id] ?? [:],
                    whole: wholeAmounts[id] ?? [:]
                )
                (state, emitted) = WalletLedger.apply(
                    state,
                    change,
                    addresses: addresses,
                    amounts: amounts,
                    context: context
                )
                events += emitted
            }
            if state != stored[id] {
                if state.updatedAt == stored[id]?.updatedAt { state.updatedAt = now }
                try txn.putWalletState(state)
            }
        }
        return events
    }

    /// The states of the wallet's addresses as this transaction leaves them.
    private func addressStates(_ wallet: String) throws -> [AddressState] {
        var result: [String: AddressState] = [:]
        for state in try txn.addressStates(chain: chain) where state.wallet?.wallet == wallet {
            result[state.address] = state
        }
        for (address, state) in afters[wallet] ?? [:] { result[address] = state }
        return result.keys.sorted().compactMap { result[$0] }
    }

    /// Derives what each branch's window lacks and adds it to the script index.
    package static func grow(
        _ state: inout WalletState,
        wallet: WalletBook.Wallet,
        txn: StoreTransaction<WriteTransaction>,
        derived: [WalletAddressRef: [UInt8]] = [:]
    ) throws {
        for branch in wallet.branches {
            guard let range = WalletWindow.missing(state[branch], gap: wallet.gap) else { continue }
            for index in range {
                let ref = WalletAddressRef(wallet: wallet.id, branch: branch, index: index)
                let script = try derived[ref] ?? wallet.script(branch, index)
                try txn.putWalletScript(chain: state.chain, script: script, ref)
            }
            state[branch] = WalletWindow.derived(state[branch], upTo: range.upperBound)
        }
    }

    /// Removes a stored wallet: its scripts (derived again from its stored descriptor), state and addresses.
    package static func forget(_ state: WalletState, txn: StoreTransaction<WriteTransaction>) throws {
        if let old = WalletBook.Wallet(stored: state) {
            for branch in old.branches {
                guard let last = state[branch].derivedUpTo else { continue }
                for index in 0...last {
                    try txn.removeWalletScript(chain: state.chain, script: try old.script(branch, index))
                }
            }
        }
        try txn.removeWallet(chain: state.chain, wallet: state.wallet)
    }
}
