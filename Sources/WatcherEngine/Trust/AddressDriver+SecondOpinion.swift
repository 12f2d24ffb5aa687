import Logging
import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherScheduler
import WatcherStorage

/// The stored tip at which an `address` watch last asked a second opinion.
final class SecondOpinionMark: Sendable {
    let tip = Mutex<String?>(nil)
}

/// A provider in charge that leaves a payment out of an address's summary is not caught by verifying what it
/// claims: it claims nothing. With `agree` above 1, once per new stored tip, the watch's next provider able to poll
/// addresses (the provider in charge asked last) reads the same summaries; where it sees more, it reads the history
/// and its claims are verified like any other (by `agree` providers), so a fact the others hold is announced even
/// while the provider in charge hides it. It costs one summary per address (per batch, where the provider batches)
/// per block, and a history only where the summaries differ.
extension AddressDriver {
    /// The second opinion over `book`, if the stored tip moved since the last one and the provider in charge had
    /// its round at that tip (`polledAt`: the stored tip when that round began). A round the block overtook waits
    /// for the next, so the second opinion compares with what the provider in charge said at the same tip.
    func secondOpinion(_ book: AddressBook, mark: SecondOpinionMark, polledAt: String?) async throws {
        guard agree > 1, !book.entries.isEmpty else { return }
        let chain = self.chain
        guard let tip = try context.store.read({ try $0.tip(chain: chain)?.hash }), tip == polledAt,
            mark.tip.withLock({ $0 }) != tip
        else { return }
        var usable: [String] = []
        for id in providers where context.chainProviders[id]?.capabilities.pollsAddresses == true {
            if await context.scheduler.isSetAside(id) { continue }
            usable.append(id)
        }
        guard usable.count >= 2 else {
            mark.tip.withLock { $0 = tip }
            return
        }
        var other = self
        other.providers = Array(usable.dropFirst()) + [usable[0]]
        let addresses = Array(book.entries.keys)
        let before = try known(addresses)
        try await other.poll(book)
        mark.tip.withLock { $0 = tip }
        let after = try known(addresses)
        for address in addresses.sorted() {
            let found = (after[address] ?? []).subtracting(before[address] ?? [])
            guard !found.isEmpty else { continue }
            context.logger.warning(
                "a second provider found transactions the provider in charge did not report",
                metadata: [
                    "chain": "\(chain)", "address": "\(address)", "inCharge": "\(usable[0])",
                    "foundBy": "\(usable[1])", "txids": "\(found.sorted().joined(separator: ","))",
                ]
            )
        }
    }

    /// The txids each address's state holds.
    private func known(_ addresses: [String]) throws -> [String: Set<String>] {
        let chain = self.chain
        return try context.store.read { txn in
            var known: [String: Set<String>] = [:]
            for address in addresses {
                let state = try txn.addressState(chain: chain, address: address)
                known[address] = Set(state.map { Array($0.txs.keys) } ?? [])
            }
            return known
        }
    }
}
