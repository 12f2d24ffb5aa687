import Logging
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// Mempool transactions of the scanned addresses and wallets that leave the node's mempool without a block. A
/// transaction missing from the list may be in a block the scan has not committed yet; it is announced gone
/// (`address.tx.replaced`) only once the stored tip has moved past the height it was first missed at, still
/// unconfirmed: the scan read the block(s) in between, and none confirmed it. The providers that can tell
/// (``ChainCapabilities/spenders``) are asked who spends the outputs it spent, which names the replacement and
/// the reason, as on the poll path.
extension MempoolJob {
    func dropGone(current: Set<String>, followed: Set<String>) async throws {
        let chain = self.chain
        let walletIDs = Set(targets.scan?.watches ?? []).intersection(targets.wallets.wallets.keys)
        let (tipHeight, byTxid, outpoints) = try context.store.read {
            txn -> (Int?, [String: [String]], [String: [TxOutpoint]]) in
            var byTxid: [String: [String]] = [:]
            var outpoints: [String: [TxOutpoint]] = [:]
            for state in try txn.addressStates(chain: chain)
            where followed.contains(state.address) || state.wallet.map({ walletIDs.contains($0.wallet) }) ?? false {
                for tx in state.txs.values where tx.blockHeight == nil && !current.contains(tx.txid) {
                    byTxid[tx.txid, default: []].append(state.address)
                    if let spends = tx.spends { outpoints[tx.txid] = spends }
                }
            }
            return (try txn.tip(chain: chain)?.height, byTxid, outpoints)
        }
        guard let tipHeight else { return }
        // Asked when first missed: a replacement still in the mempool is named then (once mined, a node without
        // an address index cannot tell who spent an output).
        let unasked = memory.withLock { $0.unasked(Set(byTxid.keys)) }
        for txid in unasked.sorted().prefix(AddressDriver.maxLookups) {
            let spends = try await spendAnswers(outpoints[txid] ?? [])
            memory.withLock { $0.remember(txid, spends: spends) }
        }
        let gone = memory.withLock { $0.gone(Set(byTxid.keys), tipHeight: tipHeight) }
        guard !gone.isEmpty else { return }
        var addresses: [String: [String]] = [:]
        for txid in gone.sorted() {
            for address in byTxid[txid] ?? [] { addresses[address, default: []].append(txid) }
        }
        var spends: [TxOutpoint: OutputSpend] = [:]
        for txid in gone { spends.merge(memory.withLock { $0.spends(of: txid) }) { first, _ in first } }
        try await commitGone(addresses, spends: spends)
    }

    /// Who spends the outputs the gone transactions spent, from the job's providers that can tell
    /// (``ChainCapabilities/spenders``: Core's `gettxspendingprevout`), one request per parent transaction and at
    /// most ``AddressDriver/maxLookups`` a round; none capable or none answering, the reason stays
    /// `dropped from the mempool`.
    private func spendAnswers(_ outpoints: [TxOutpoint]) async throws -> [TxOutpoint: OutputSpend] {
        let capable = context.providers(providers, serving: .spenders)
        guard !capable.isEmpty, !outpoints.isEmpty else { return [:] }
        let byParent = Dictionary(grouping: outpoints, by: \.txid).mapValues { Set($0.map(\.vout)).sorted() }
        var answers: [TxOutpoint: OutputSpend] = [:]
        for parent in byParent.keys.sorted().prefix(AddressDriver.maxLookups) {
            guard let outputs = byParent[parent] else { continue }
            let spends: [Int: OutputSpend]
            do {
                spends = try await context.ask(capable, .refresh) { try await $0.spends(of: parent, outputs: outputs) }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // The drop is announced all the same, its reason unknown.
                context.logger.debug(
                    "no answer about the spenders of a dropped transaction's inputs",
                    metadata: ["parent": "\(parent)", "error": "\(error)"]
                )
                continue
            }
            for (vout, spend) in spends where outputs.contains(vout) {
                answers[TxOutpoint(txid: parent, vout: vout)] = spend
            }
        }
        return answers
    }

    /// One write transaction: each address's gone transactions forgotten and announced.
    private func commitGone(_ addresses: [String: [String]], spends: [TxOutpoint: OutputSpend]) async throws {
        let chain = self.chain
        let book = try targets.book()
        let walletBook = targets.wallets
        let now = context.events.now()
        try await context.commit { txn in
            var wallets = try WalletCommit(chain: chain, book: walletBook, txn: txn, now: now)
            var events: [NewEvent] = []
            for (address, txids) in addresses.sorted(by: { $0.key < $1.key }) {
                guard let stored = try txn.addressState(chain: chain, address: address) else { continue }
                guard let entry = try wallets.entry(of: stored, or: book.entries[address]) else { continue }
                let context = AddressReducer.Context(chain: chain, entry: entry, prices: wallets.prices, now: now)
                var state = stored
                var emitted: [NewEvent] = []
                for txid in txids {
                    let (next, more) = AddressReducer.dropped(state, txid: txid, spends: spends, context: context)
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
