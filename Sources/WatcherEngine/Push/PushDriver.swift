import Logging
import WatcherCore
import WatcherScheduler
import WatcherStorage

/// Keeps a chain's push connection up: connects, subscribes the followed addresses (as many as one connection
/// takes), turns pushed blocks into an immediate tip poll and pushed transactions into a check of their address,
/// and reconnects with backoff. Each (re)connect starts a tip poll and a round of the polled watches, so nothing
/// is missed while the connection was down.
struct PushDriver: Sendable {
    let chain: String
    let provider: String
    let pusher: any ChainPushing
    let context: EngineContext
    let book: @Sendable () throws -> AddressBook
    let state: PushState
    /// Rung at each connect: polled watches and unscanned accounts check what they may have missed.
    let blockWake: BlockWakeup?

    /// Longest wait between reconnects.
    static let maxBackoff: Duration = .seconds(60)

    /// Runs until cancelled.
    func run() async {
        let (events, sink) = AsyncStream<PushEvent>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await checkAddresses(events) }
            await connectForever(sink)
            sink.finish()
            await group.waitForAll()
        }
    }

    private func connectForever(_ sink: AsyncStream<PushEvent>.Continuation) async {
        var failures = 0
        var lastError: String?
        while !Task.isCancelled {
            let started = context.time.elapsed
            do {
                try await pusher.follow(addresses: { addresses() }) { event in
                    await handle(event, sink)
                }
            } catch is CancellationError {
                break
            } catch {
                let text = "\(error)"
                if text != lastError {
                    context.logger.warning(
                        "push connection down; polling meanwhile",
                        metadata: ["chain": "\(chain)", "provider": "\(provider)", "error": "\(text)"]
                    )
                    lastError = text
                }
            }
            state.setConnected(false)
            failures = context.time.elapsed - started > .seconds(60) ? 1 : failures + 1
            let delay = min(Self.maxBackoff, .seconds(1 << min(failures, 6)))
            try? await context.time.sleep(for: delay)
        }
        state.setConnected(false)
    }

    /// The followed addresses a connection subscribes, at most the connection's capacity.
    private func addresses() -> [String] {
        let all = ((try? book())?.entries.keys.sorted()) ?? []
        if all.count > pusher.maxAddresses, state.firstCapacityWarning() {
            context.logger.notice(
                "more followed addresses than the push connections take; the rest are polled or scanned",
                metadata: ["chain": "\(chain)", "followed": "\(all.count)", "pushed": "\(pusher.maxAddresses)"]
            )
        }
        return Array(all.prefix(pusher.maxAddresses))
    }

    private func handle(_ event: PushEvent, _ sink: AsyncStream<PushEvent>.Continuation) async {
        switch event {
        case .subscribed:
            if !state.isConnected {
                context.logger.info("push connected", metadata: ["chain": "\(chain)", "provider": "\(provider)"])
            }
            state.setConnected(true)
            state.requestTip()
            blockWake?.notify()
        case .newBlock:
            state.requestTip()
        case .addressTx:
            sink.yield(event)
        }
    }

    /// Applies each pushed transaction: straight from the push when it carried the transaction (no request),
    /// otherwise by checking the address through the providers at the tip's priority.
    private func checkAddresses(_ events: AsyncStream<PushEvent>) async {
        var driver = AddressDriver(chain: chain, providers: [provider], context: context)
        driver.priority = .tip
        for await event in events {
            guard case .addressTx(let address, let txid, let delta, let confirmed) = event,
                let entry = try? book().entries[address]
            else { continue }
            do {
                if let delta, !confirmed {
                    try await apply(entry, txid: txid, deltaSat: delta)
                } else {
                    try await driver.poll(AddressBook(entries: [address: entry]))
                }
            } catch {
                context.logger.debug(
                    "pushed transaction not applied",
                    metadata: ["address": "\(address)", "txid": "\(txid)", "error": "\(error)"]
                )
            }
        }
    }

    private func apply(_ entry: AddressBook.Entry, txid: String, deltaSat: Int64) async throws {
        let chain = self.chain
        let now = context.events.now()
        try await context.commit { txn in
            let state =
                try txn.addressState(chain: chain, address: entry.address)
                ?? AddressState(chain: chain, address: entry.address)
            var reducerContext = AddressReducer.Context(chain: chain, entry: entry, blockHashes: [:], now: now)
            reducerContext.prices = try txn.prices()
            let (next, events) = AddressReducer.pushed(state, txid: txid, deltaSat: deltaSat, context: reducerContext)
            if next != state { try txn.putAddressState(next) }
            return events
        }
    }
}
