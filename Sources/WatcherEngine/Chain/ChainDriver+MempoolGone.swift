import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// Mempool transactions of the scanned addresses and wallets that leave the node's mempool without a block. A
/// transaction missing from the list may be in a block the scan has not committed yet; it is announced gone
/// (`address.tx.replaced`) only once the stored tip has moved past the height it was first missed at, still
/// unconfirmed: the scan read the block(s) in between, and none confirmed it.
extension ChainDriver {
    func dropGone(current: Set<String>, memory: MempoolMemory, followed: Set<String>) async throws {
        let chain = self.chain
        let walletIDs = Set(scan?.watches ?? []).intersection(wallets.wallets.keys)
        let (tipHeight, byTxid) = try context.store.read { txn -> (Int?, [String: [String]]) in
            var byTxid: [String: [String]] = [:]
            for state in try txn.addressStates(chain: chain)
            where followed.contains(state.address) || state.wallet.map({ walletIDs.contains($0.wallet) }) ?? false {
                for tx in state.txs.values where tx.blockHeight == nil && !current.contains(tx.txid) {
                    byTxid[tx.txid, default: []].append(state.address)
                }
            }
            return (try txn.tip(chain: chain)?.height, byTxid)
        }
        guard let tipHeight else { return }
        let gone = memory.gone(Set(byTxid.keys), tipHeight: tipHeight)
        guard !gone.isEmpty else { return }
        var addresses: [String: [String]] = [:]
        for txid in gone.sorted() {
            for address in byTxid[txid] ?? [] { addresses[address, default: []].append(txid) }
        }
        try await commitGone(addresses)
    }

    /// One write transaction: each address's gone transactions forgotten and announced.
    private func commitGone(_ addresses: [String: [String]]) async throws {
        let chain = self.chain
        let book = try self.book()
        let walletBook = self.wallets
        let now = context.events.now()
        try await context.commit { txn in
            let prices = try txn.prices()
            var wallets = WalletCommit(chain: chain, book: walletBook, txn: txn, now: now, prices: prices)
            var events: [NewEvent] = []
            for (address, txids) in addresses.sorted(by: { $0.key < $1.key }) {
                guard let stored = try txn.addressState(chain: chain, address: address) else { continue }
                var entry = book.entries[address]
                if let ref = stored.wallet, let wallet = walletBook.wallets[ref.wallet],
                    let walletState = try wallets.state(ref.wallet)
                {
                    entry = wallet.entry(
                        address: address,
                        ref: ref,
                        since: walletState.since,
                        issuedLabel: try wallets.issuedLabel(ref)
                    )
                }
                guard let entry else { continue }
                let context = AddressReducer.Context(chain: chain, entry: entry, prices: prices, now: now)
                var state = stored
                var emitted: [NewEvent] = []
                for txid in txids {
                    let (next, more) = AddressReducer.dropped(state, txid: txid, context: context)
                    state = next
                    emitted += more
                }
                events += emitted
                if state != stored { try txn.putAddressState(state) }
                if let ref = entry.wallet { try wallets.record(ref, before: stored, after: state, events: emitted) }
            }
            return events + (try wallets.finish())
        }
    }
}
