import Logging
import Synchronization
import WatcherCore
import WatcherRules
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
    /// The chain's wallets: their windows (both branches) are subscribed, ahead of the addresses followed one by one.
    var wallets = WalletBook()
    /// The wallets' window addresses, derived once each.
    var windowAddresses = WalletAddressCache()
    /// The `address` watches whose confirmations are verified, by id: their providers and how they read. A pushed
    /// change of one of their addresses is read and verified as their rounds do, so a confirmation is never the
    /// pushing server's word alone.
    var verified: [String: (providers: [String], reads: Reads)] = [:]

    /// Longest wait between reconnects.
    static let maxBackoff: Duration = .seconds(60)
    /// How often the wallets' windows are compared with the subscribed ones.
    static let windowCheck: Duration = .seconds(1)
    /// Longest the first connection waits for the wallets' first windows.
    static let firstWindowsWait: Duration = .seconds(10)

    /// The extent of every wallet's window (`nil` without wallets): when it changes, the subscription is renewed.
    private func walletSignature() -> String? {
        guard !wallets.wallets.isEmpty else { return nil }
        let chain = self.chain
        let states = (try? context.store.read { try $0.walletStates(chain: chain) }) ?? []
        return states.map { "\($0.wallet):\($0.receive.derivedUpTo ?? -1):\($0.change.derivedUpTo ?? -1)" }
            .joined(separator: ",")
    }

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
        // The first connection waits (a few seconds at most) for the wallets' first windows, so that it subscribes
        // them rather than connecting twice.
        let time = context.time
        let deadline = time.elapsed + Self.firstWindowsWait
        while time.elapsed < deadline, let signature = walletSignature(),
            signature.split(separator: ",").count < wallets.wallets.count
        {
            try? await time.sleep(for: .milliseconds(100))
        }
        while !Task.isCancelled {
            let started = context.time.elapsed
            do {
                // A wallet window that grows is subscribed anew at once (a new connection), not at the client's
                // next recheck; unless the client follows growth itself.
                let windows = pusher.followsGrowth ? nil : walletSignature()
                let grown = try await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        try await pusher.follow(addresses: { addresses() }) { event in
                            await handle(event, sink)
                        }
                        return false
                    }
                    if let windows {
                        group.addTask {
                            while walletSignature() == windows { try await context.time.sleep(for: Self.windowCheck) }
                            return true
                        }
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? false
                }
                if grown {
                    context.logger.debug("a wallet window grew; subscribing it", metadata: ["chain": "\(chain)"])
                    continue
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

    /// The followed addresses a connection subscribes, at most the connection's capacity: every wallet's window
    /// (receive and change, as far as it is derived: the push client asks again every recheck, so a grown window is
    /// subscribed anew), then the addresses followed one by one.
    private func addresses() -> [String] {
        // A hint-only connection (bitcoind's ZMQ) follows no addresses.
        guard pusher.maxAddresses > 0 else { return [] }
        let windows = (try? walletWindows(limit: pusher.maxAddresses)) ?? []
        let listed = Set(windows)
        let all = windows + (((try? book())?.entries.keys.sorted()) ?? []).filter { !listed.contains($0) }
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
            state.subscribed()
            state.requestTip()
            blockWake?.notify()
        case .newBlock:
            state.requestTip()
        case .mempool(let txid):
            state.requestMempool(txid)
        case .addressTx:
            sink.yield(event)
        }
    }

    /// The addresses of every wallet's window, in wallet order, receive then change, at most `limit` (only those
    /// are derived and kept).
    private func walletWindows(limit: Int) throws -> [String] {
        guard !wallets.wallets.isEmpty else { return [] }
        let chain = self.chain
        let states = try context.store.read { try $0.walletStates(chain: chain) }
        var result: [String] = []
        for state in states {
            guard let wallet = wallets.wallets[state.wallet], state.descriptor == wallet.normalized else { continue }
            for branch in wallet.branches {
                guard let last = state[branch].derivedUpTo, result.count < limit else { continue }
                result += try windowAddresses.addresses(wallet, branch, upTo: min(last, limit - result.count - 1))
            }
        }
        return result
    }

    /// Applies each pushed transaction: straight from the push when it carried the transaction (no request but a
    /// lookup of each input's parent the address does not hold, for ``TxFacts/unconfirmedInputs``),
    /// otherwise by checking the address through the providers at the tip's priority. A wallet's address is found
    /// through the script index; its confirmed transactions come with the wallet's scan or poll.
    private func checkAddresses(_ events: AsyncStream<PushEvent>) async {
        var driver = AddressDriver(chain: chain, providers: [provider], context: context)
        driver.priority = .tip
        for await event in events {
            guard case .addressTx(let address, let txid, let delta, let confirmed, let facts, let deltas) = event
            else { continue }
            if let ref = try? walletRef(address) {
                guard let delta, !confirmed else { continue }
                do {
                    let facts = await withUnconfirmedInputs(facts, txid: txid, address: address)
                    let touched = walletAddresses(of: ref.wallet, deltas ?? [:], pushed: (address, ref, delta))
                    try await applyWallet(ref.wallet, touched, txid: txid, facts: facts)
                } catch {
                    context.logger.debug(
                        "pushed wallet transaction not applied",
                        metadata: ["address": "\(address)", "txid": "\(txid)", "error": "\(error)"]
                    )
                }
                continue
            }
            guard let entry = try? book().entries[address] else { continue }
            do {
                if let delta, !confirmed {
                    let facts = await withUnconfirmedInputs(facts, txid: txid, address: address)
                    try await apply(entry, txid: txid, deltaSat: delta, facts: facts)
                } else {
                    try await poll(reader(for: entry, base: driver), entry)
                }
            } catch {
                context.logger.debug(
                    "pushed transaction not applied",
                    metadata: ["address": "\(address)", "txid": "\(txid)", "error": "\(error)"]
                )
            }
        }
    }

    /// The driver that reads `entry`'s address: `base` (the pushing provider alone), or for a watch with `agree`
    /// above 1 one with the watch's providers, which verifies what the pushing provider claims.
    private func reader(for entry: AddressBook.Entry, base: AddressDriver) -> AddressDriver {
        guard let watch = verified[entry.watch] else { return base }
        var driver = base
        driver.providers = [provider] + watch.providers.filter { $0 != provider }
        driver.reads = watch.reads.renewed()
        return driver
    }

    /// Polls `entry`'s address, and again (at most twice more) while a block was committed during the poll: the
    /// driver drops an observation a new block may predate, leaving it to the round the block starts, and with a
    /// push that pushes every change (``ChainPushing/pushesEveryChange``) a block starts no round.
    private func poll(_ driver: AddressDriver, _ entry: AddressBook.Entry) async throws {
        let chain = self.chain
        for _ in 0..<3 {
            let before = try context.store.read { try $0.tip(chain: chain)?.hash }
            try await driver.poll(AddressBook(entries: [entry.address: entry]))
            guard try context.store.read({ try $0.tip(chain: chain)?.hash }) != before else { return }
        }
    }

    private func apply(_ entry: AddressBook.Entry, txid: String, deltaSat: Int64, facts: TxFacts?) async throws {
        let chain = self.chain
        let now = context.events.now()
        try await context.commit { txn in
            let state =
                try txn.addressState(chain: chain, address: entry.address)
                ?? AddressState(chain: chain, address: entry.address)
            var reducerContext = AddressReducer.Context(chain: chain, entry: entry, blockHashes: [:], now: now)
            reducerContext.prices = try txn.prices()
            let (next, events) = AddressReducer.pushed(
                state,
                txid: txid,
                deltaSat: deltaSat,
                facts: facts,
                context: reducerContext
            )
            if next != state { try txn.putAddressState(next) }
            return events
        }
    }
}

/// The addresses of wallets' windows, derived once each and kept (a window only grows).
final class WalletAddressCache: Sendable {
    private let cache: Mutex<[String: [String]]> = Mutex([:])

    /// The addresses of `branch` from 0 up to `last`.
    func addresses(_ wallet: WalletBook.Wallet, _ branch: WalletBranch, upTo last: Int) throws -> [String] {
        let key = "\(wallet.normalized) \(branch)"
        var known = cache.withLock { $0[key] ?? [] }
        guard known.count <= last else { return Array(known.prefix(last + 1)) }
        for index in known.count...last { known.append(try wallet.address(branch, index)) }
        cache.withLock { $0[key] = known }
        return known
    }
}
