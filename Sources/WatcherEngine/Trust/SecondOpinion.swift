import Logging
import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherScheduler
import WatcherStorage

/// A provider in charge that leaves a payment out of an address's summary is not caught by verifying what it
/// claims: it claims nothing. With `agree` above 1, once per new stored tip, a polled `address` or `wallet` watch
/// runs its round again with the next provider able to poll addresses in charge (the first one asked last): where
/// that one sees more, the history is read and its claims verified like any other (by `agree` providers), so a fact
/// the others hold is announced even while the provider in charge hides it. It costs one summary per address (per
/// batch, where the provider batches) per block, and a history only where the summaries differ.
///
/// It runs only when the provider in charge had its round at the same stored tip (a round a block overtook waits for
/// the next), so it compares with what that provider said there.
final class SecondOpinion: Sendable {
    let chain: String
    let context: EngineContext
    /// The stored tip it last ran at.
    private let checked = Mutex<String?>(nil)

    init(chain: String, context: EngineContext) {
        self.chain = chain
        self.context = context
    }

    /// A job body: `round` with the watch's providers, then, once per block, `round` with them reordered by
    /// ``run(providers:needs:polledAt:addresses:round:)``. A failure of the first round does not stop the second
    /// opinion (the provider in charge may be the one failing); it is thrown after it.
    func body(
        providers: [String],
        needs: ChainCapabilities = [.address, .addressTransactions],
        addresses: @escaping @Sendable () throws -> [String] = { [] },
        round: @escaping @Sendable (_ providers: [String]) async throws -> Void
    ) -> @Sendable () async throws -> Void {
        { [self] in
            let tip = try self.tip()
            var failure: (any Error)?
            do { try await round(providers) } catch is CancellationError { throw CancellationError() } catch {
                failure = error
            }
            try await run(providers: providers, needs: needs, polledAt: tip, addresses: addresses, round: round)
            if let failure { throw failure }
        }
    }

    /// The stored tip's hash, read before the provider in charge's round.
    func tip() throws -> String? {
        let chain = self.chain
        return try context.store.read { try $0.tip(chain: chain)?.hash }
    }

    /// Runs `round` with `providers` reordered (the first one last; those set aside, or without `needs`, left out),
    /// if the stored tip is still `polledAt` and no second opinion ran there yet; `addresses` are the ones whose new
    /// transactions are logged as found by the second provider.
    func run(
        providers: [String],
        needs: ChainCapabilities = [.address, .addressTransactions],
        polledAt: String?,
        addresses: @Sendable () throws -> [String],
        round: @Sendable ([String]) async throws -> Void
    ) async throws {
        guard let tip = try self.tip(), tip == polledAt, checked.withLock({ $0 }) != tip else { return }
        var usable: [String] = []
        for id in providers where context.chainProviders[id]?.capabilities.isSuperset(of: needs) == true {
            if await context.scheduler.isSetAside(id) { continue }
            usable.append(id)
        }
        guard usable.count >= 2 else {
            checked.withLock { $0 = tip }
            return
        }
        let followed = try addresses()
        let before = try known(followed)
        try await round(Array(usable.dropFirst()) + [usable[0]])
        checked.withLock { $0 = tip }
        let after = try known(followed)
        for address in followed.sorted() {
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
