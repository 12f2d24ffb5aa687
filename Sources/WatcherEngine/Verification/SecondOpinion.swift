import Logging
import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherScheduler
import WatcherStorage

/// A provider in charge that leaves a payment out of an address's summary is not caught by verifying what it
/// claims: it claims nothing. With `agree` above 1, once per new stored tip, a polled `address` or `wallet` watch
/// (or a `tx` watch) runs its round again with the next capable provider in charge (the first one asked last): where
/// that one sees more, the history is read and its claims verified like any other (by `agree` providers), so a fact
/// the others hold is announced even while the provider in charge hides it. It costs one summary per address (per
/// batch, where the provider batches) per block, and a history only where the summaries differ.
///
/// It runs only when the provider in charge had its round at the same stored tip (a round a block overtook waits for
/// the next), so it compares with what that provider said there.
final class SecondOpinion: Sendable {
    let chain: String
    /// The watch (its events' source).
    let watch: String
    let context: EngineContext
    /// The stored tip it last ran at.
    private let checked = Mutex<String?>(nil)

    init(chain: String, watch: String, context: EngineContext) {
        self.chain = chain
        self.watch = watch
        self.context = context
    }

    /// A job body: `round` with the watch's providers, then, once per block, `round` with them reordered by
    /// ``run(providers:needs:polledAt:addresses:round:)``. A failure of the first round does not stop the second
    /// opinion (the provider in charge may be the one failing); it is thrown after it.
    func body(
        providers: [String],
        needs: ChainCapabilities = [.address, .addressTransactions],
        round: @escaping @Sendable (_ providers: [String]) async throws -> Void
    ) -> @Sendable () async throws -> Void {
        { [self] in
            let tip = try self.tip()
            var failure: (any Error)?
            do { try await round(providers) } catch is CancellationError { throw CancellationError() } catch {
                failure = error
            }
            try await run(providers: providers, needs: needs, polledAt: tip, round: round)
            if let failure { throw failure }
        }
    }

    /// The stored tip's hash, read before the provider in charge's round.
    func tip() throws -> String? {
        let chain = self.chain
        return try context.store.read { try $0.tip(chain: chain)?.hash }
    }

    /// Runs `round` with `providers` reordered (the first one last; those set aside, or without `needs`, left out),
    /// if the stored tip is still `polledAt` and no second opinion ran there yet. What it announced (the watch's
    /// payment events it appended) is logged as found by the second provider.
    func run(
        providers: [String],
        needs: ChainCapabilities = [.address, .addressTransactions],
        polledAt: String?,
        round: @Sendable ([String]) async throws -> Void
    ) async throws {
        guard let tip = try self.tip(), tip == polledAt, checked.withLock({ $0 }) != tip else { return }
        var usable: [String] = []
        for id in context.providers(providers, serving: needs) {
            if await context.scheduler.isSetAside(id) { continue }
            usable.append(id)
        }
        guard usable.count >= 2 else {
            checked.withLock { $0 = tip }
            return
        }
        let before = try context.store.read { try $0.lastEventSeq() }
        try await round(Array(usable.dropFirst()) + [usable[0]])
        checked.withLock { $0 = tip }
        for event in try found(since: before) {
            context.logger.warning(
                "a second provider found what the provider in charge did not report",
                metadata: [
                    "chain": "\(chain)", "watch": "\(watch)", "inCharge": "\(usable[0])", "foundBy": "\(usable[1])",
                    "event": "\(event.type)", "address": "\(event.address ?? "-")", "txid": "\(event.txid)",
                ]
            )
        }
    }

    /// The watch's payment events appended after `seq` (by the second opinion's round: the job runs one round at a
    /// time).
    private func found(since seq: UInt64) throws -> [(type: String, address: String?, txid: String)] {
        let source = JSONValue.string("watcher/\(watch)")
        let payments: Set<String> = ["address.tx.unconfirmed", "address.tx.confirmed", "tx.confirmations"]
        return try context.store.read { try $0.events(from: seq + 1) }.compactMap { logged in
            guard payments.contains(logged.type), let event = try? JSONValue.parse(logged.body),
                event["source"] == source, let txid = event["data"]?["txid"]?.stringValue
            else { return nil }
            return (logged.type, event["data"]?["address"]?.stringValue, txid)
        }
    }
}
