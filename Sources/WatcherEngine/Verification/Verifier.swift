import Logging
import WatcherCore
import WatcherRules
import WatcherScheduler

/// The I/O around ``Agreement``: asks a watch's other providers, by txid, about a confirmation the provider in
/// charge claims. Each is asked once, in the watch's order, until `agree` providers hold one block, so a confirmed
/// payment costs at most one request per verifying provider; a provider that cannot answer now (unreachable,
/// rate limited) gives no answer and the confirmation waits for the next round. A provider the chain's agreed tip
/// set aside is not asked.
struct Verifier: Sendable {
    /// The providers able to verify (those with transaction lookups), in the watch's order.
    let providers: [String]
    /// Providers that must agree.
    let agree: Int
    /// Providers that must report an unconfirmed payment (1: the others are not asked).
    let seenBy: Int
    let context: EngineContext
    let priority: RequestPriority
    /// Verdicts already agreed in earlier rounds of the job.
    var memory = Locked(AgreementCache())

    /// A verifier for a watch with `agree` or `seenBy` above 1, else `nil` (the provider in charge alone).
    init?(providers: [String], agree: Int, seenBy: Int = 1, context: EngineContext, priority: RequestPriority) {
        guard agree > 1 || seenBy > 1 else { return nil }
        self.providers = context.providers(providers, serving: .transaction)
        self.agree = agree
        self.seenBy = seenBy
        self.context = context
        self.priority = priority
    }

    /// The answers about `txid`: `claim` first (when a provider claims it), then the others, asked in order until
    /// `agree` hold one block.
    /// - Parameters:
    ///   - address: the followed address whose effect is compared, if any.
    ///   - holders: providers already known to hold the claimed block (``AgreementCache/holders(_:tip:onStoredChain:)``):
    ///     their answers are taken as given, not asked again (unless set aside since).
    func answers(_ claim: Agreement.Said?, txid: String, address: String?, holders: [Agreement.Said] = [])
        async throws -> [Agreement.Said]
    {
        var said = claim.map { [$0] } ?? []
        for holder in holders where holder.provider != claim?.provider && providers.contains(holder.provider) {
            if await context.scheduler.isSetAside(holder.provider) { continue }
            said.append(holder)
        }
        for id in providers where !said.contains(where: { $0.provider == id }) {
            guard Agreement.needed(said, agree: agree) else { break }
            // Lagging or on another chain (``TipAgreement``): not asked, its word left out of confirmations.
            if await context.scheduler.isSetAside(id) { continue }
            if let answer = try await ask(id, txid: txid, claim: claim, address: address) {
                said.append(Agreement.Said(id, answer))
            }
        }
        return said
    }

    /// The providers that report `txid` (in their mempool or a block): `known` first, then the others asked in the
    /// watch's order until `seenBy` have (one request each; one that cannot answer now, or a provider set aside,
    /// counts as not reporting it, and is asked again next round).
    func seen(_ txid: String, known: [String]) async throws -> [String] {
        var seen = known
        for id in providers where !seen.contains(id) {
            guard seen.count < seenBy else { break }
            if await context.scheduler.isSetAside(id) { continue }
            if let answer = try await ask(id, txid: txid, claim: nil, address: nil), answer != .notFound {
                seen.append(id)
            }
        }
        return seen
    }

    /// What provider `id` says of `txid` (asked about the claimed block where there is one: a node without txindex
    /// finds the transaction by block, and an Electrum server proves it with a merkle branch); `nil` when it cannot
    /// answer now.
    private func ask(_ id: String, txid: String, claim: Agreement.Said?, address: String?) async throws
        -> Agreement.Answer?
    {
        do {
            let tx = try await context.ask([id], priority) { provider in
                guard case .block(let height, let hash?, _) = claim?.answer else {
                    return try await provider.transaction(txid)
                }
                return try await provider.confirmation(of: txid, inBlock: hash, height: height)
            }
            return Agreement.answer(tx, address: address)
        } catch ProviderError.notFound {
            return .notFound
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.debug(
                "no answer about a transaction",
                metadata: ["provider": "\(id)", "txid": "\(txid)", "error": "\(error)"]
            )
            return nil
        }
    }
}
