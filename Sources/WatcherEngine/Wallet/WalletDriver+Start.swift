import Logging
import WatcherCore
import WatcherRules
import WatcherStorage

/// The starting balances of a scanned wallet on a node (``ChainCapabilities/utxoScan``, no address index): the
/// window's addresses whose balance is not known, read from the UTXO set in one long request (as
/// ``StartingBalances`` does for addresses), applied as a silent baseline of the addresses and the wallet, except the
/// outputs made in a block from the wallet's `since` on: those are payments the growing window reached after their
/// block, announced as that block's. A funded address counts as used, so the window grows past it, and the next
/// round reads the addresses it grew by.
extension WalletDriver {
    /// Reads and stores the starting balances of the window's addresses not known yet; does nothing on a provider
    /// without ``ChainCapabilities/utxoScan``.
    func startingBalances() async throws {
        let chain = self.chain
        let id = wallet.id
        guard let provider = providers.first.flatMap({ context.chainProviders[$0] }),
            provider.capabilities.contains(.utxoScan)
        else { return }
        let read = try context.store.read { txn in
            (
                try txn.walletState(chain: chain, wallet: id),
                try txn.addressStates(chain: chain).filter { $0.wallet?.wallet == id },
                try txn.tip(chain: chain)
            )
        }
        guard let state = read.0, state.descriptor == wallet.normalized, let tip = read.2 else { return }
        let known = Set(read.1.filter { $0.summary?.balanceSat != nil }.map(\.address))
        var targets: [Target] = []
        for branch in wallet.branches {
            guard let last = state[branch].derivedUpTo else { continue }
            for index in 0...last {
                let address = try wallet.address(branch, index)
                guard !known.contains(address) else { continue }
                targets.append(
                    Target(ref: WalletAddressRef(wallet: id, branch: branch, index: index), address: address)
                )
            }
        }
        guard !targets.isEmpty else { return }
        context.logger.info(
            "reading a wallet's starting balances from the node's UTXO set",
            metadata: ["wallet": "\(id)", "addresses": "\(targets.count)", "tip": "\(tip.height)"]
        )
        let scan = try await provider.unspentBalances(targets.map(\.address))
        let (book, wallet, now, logger, asked) = (self.book, self.wallet, context.events.now(), context.logger, targets)
        try await context.commit { txn in
            guard try txn.tip(chain: chain)?.hash == scan.block.hash else {
                logger.notice(
                    "a wallet's starting balances read at another tip than the stored one; read again next round",
                    metadata: ["wallet": "\(id)", "scanned": "\(scan.block.height)"]
                )
                return []
            }
            var wallets = try WalletCommit(chain: chain, book: book, txn: txn, now: now)
            guard try wallets.state(id) != nil else { return [] }
            let hashes = try txn.blockHashes(chain: chain)
            let prices = try txn.prices()
            var events: [NewEvent] = []
            for target in asked {
                guard let balance = scan.balances[target.address] else { continue }
                let (stored, address, entry) = try wallets.placed(target.address, ref: target.ref, wallet: wallet)
                let context = AddressReducer.Context(
                    chain: chain,
                    entry: entry,
                    prices: prices,
                    blockHashes: hashes,
                    now: now
                )
                // A payment in a block from the wallet's `since` on, to an index the window reached only later, is
                // announced: only what the address held before `since` is a silent baseline.
                let (next, emitted) = AddressReducer.started(
                    address,
                    confirmedSat: balance,
                    outputs: scan.outputs[target.address] ?? [],
                    at: scan.block,
                    hashes: hashes,
                    context: context
                )
                if next != stored { try txn.putAddressState(next) }
                try wallets.record(target.ref, before: stored, after: next, events: emitted)
                if balance > 0 { try wallets.used(target.ref) }
                events += emitted
            }
            return events + (try wallets.finish())
        }
    }
}
