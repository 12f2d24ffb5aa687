import WatcherCore
import WatcherRules
import WatcherStorage

/// Pushed mempool transactions of wallets' addresses.
extension PushDriver {
    /// One address of a wallet a pushed transaction touches, with the transaction's net effect on it.
    typealias Touched = (address: String, ref: WalletAddressRef, deltaSat: Int64)

    /// Where `address` sits in a followed wallet, from the script index.
    func walletRef(_ address: String) throws -> WalletAddressRef? {
        guard !wallets.wallets.isEmpty, let script = WalletBlockScan.script(of: address) else { return nil }
        let chain = self.chain
        guard let ref = try context.store.read({ try $0.walletScript(chain: chain, script: script) }),
            wallets.wallets[ref.wallet] != nil
        else { return nil }
        return ref
    }

    /// The pushed address and every other address of `wallet` the transaction touches (`deltas`, from the push):
    /// Blockbook pushes the transaction once per subscribed address, and a wallet's step must be the transaction's
    /// whole effect on the wallet (a spend's debit and its change together), so all are applied at the first push.
    func walletAddresses(of wallet: String, _ deltas: [String: Int64], pushed: Touched) -> [Touched] {
        var touched = [pushed]
        for (address, delta) in deltas.sorted(by: { $0.key < $1.key }) where address != pushed.address {
            guard let ref = try? walletRef(address), ref.wallet == wallet else { continue }
            touched.append((address, ref, delta))
        }
        return touched
    }

    /// A pushed mempool transaction at each of `touched` (addresses of `wallet`), with the wallet's balance, in one
    /// commit. An address that already holds the transaction (its own push came first, or a round read it) is left
    /// as it is.
    func applyWallet(_ wallet: String, _ touched: [Touched], txid: String, facts: TxFacts?) async throws {
        guard wallets.wallets[wallet] != nil else { return }
        let chain = self.chain
        let book = self.wallets
        let now = context.events.now()
        try await context.commit { txn in
            var commit = try WalletCommit(chain: chain, book: book, txn: txn, now: now)
            var events: [NewEvent] = []
            for item in touched {
                let stored = try txn.addressState(chain: chain, address: item.address)
                guard let (state, entry) = try commit.address(item.address, ref: item.ref, stored: stored),
                    let ref = state.wallet
                else { continue }
                let reducerContext = AddressReducer.Context(chain: chain, entry: entry, prices: commit.prices, now: now)
                let (next, emitted) = AddressReducer.pushed(
                    state,
                    txid: txid,
                    deltaSat: item.deltaSat,
                    facts: facts,
                    context: reducerContext
                )
                if next != stored { try txn.putAddressState(next) }
                try commit.record(ref, before: stored, after: next, events: emitted)
                events += emitted
            }
            return events + (try commit.finish())
        }
    }
}
