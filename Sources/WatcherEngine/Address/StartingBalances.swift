import Logging
import WatcherCore
import WatcherRules
import WatcherStorage

/// The starting balances of a scanned watch on a node (a provider with ``ChainCapabilities/utxoScan`` and no
/// address index): the addresses whose balance is not known yet, read from the UTXO set in one long request, once.
///
/// The request goes to the provider directly, not through the scheduler: a scan holds the node for minutes on
/// mainnet and must not take one of the provider's concurrent request slots (the node has no request budget to
/// count it against). It is applied only when the node read its UTXO set at the stored tip, so the balance agrees
/// with the blocks already scanned; when a block came in between, the next round scans again.
struct StartingBalances: Sendable {
    let chain: String
    let providers: [String]
    let context: EngineContext

    /// Reads and stores the starting balances of `book`'s addresses not known yet.
    func fill(_ book: AddressBook) async throws {
        let chain = self.chain
        guard let id = providers.first, let provider = context.chainProviders[id],
            provider.capabilities.contains(.utxoScan)
        else { return }
        let (tip, unknown) = try context.store.read { txn in
            (
                try txn.tip(chain: chain),
                try book.entries.keys.filter {
                    try txn.addressState(chain: chain, address: $0)?.summary?.balanceSat == nil
                }
            )
        }
        // Without a stored tip the blocks scanned so far cannot be told apart from the scan's: wait for one.
        guard let tip, !unknown.isEmpty else { return }
        let addresses = unknown.sorted()
        context.logger.info(
            "reading starting balances from the node's UTXO set",
            metadata: ["provider": "\(id)", "addresses": "\(addresses.count)", "tip": "\(tip.height)"]
        )
        let scan = try await provider.unspentBalances(addresses)
        let now = context.events.now()
        let logger = context.logger
        try await context.commit { txn in
            guard let stored = try txn.tip(chain: chain), stored.hash == scan.block.hash else {
                logger.notice(
                    "starting balances read at another tip than the stored one; read again next round",
                    metadata: ["scanned": "\(scan.block.height)", "stored": "\(tip.height)"]
                )
                return []
            }
            for address in addresses {
                guard let entry = book.entries[address], let balance = scan.balances[address] else { continue }
                let state =
                    try txn.addressState(chain: chain, address: address) ?? AddressState(chain: chain, address: address)
                let context = AddressReducer.Context(chain: chain, entry: entry, now: now)
                try txn.putAddressState(
                    AddressReducer.started(state, confirmedSat: balance, at: scan.block, context: context)
                )
            }
            return []
        }
    }
}
