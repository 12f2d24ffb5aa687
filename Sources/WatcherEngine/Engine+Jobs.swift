import Logging
import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherScheduler
import WatcherStorage

/// Each planned job's body: the driver that does its work.
extension Engine {
    /// The address book of `chain`: config watches and CLI-followed accounts (the accounts read from the store each
    /// time, the book rebuilt only when they changed).
    func book(_ chain: String) -> @Sendable () throws -> AddressBook {
        let source =
            books[chain]
            ?? AddressBookSource(chain: chain, watches: config.watches, store: context.store, settings: settings)
        return { try source.book() }
    }

    /// The body of the loop beside a chain job that fills the recent blocks shown (`watcher blocks`, the Blocks
    /// tab) from spare budget; `nil` for other jobs.
    func displayRunner(for job: JobPlan.Job) -> (@Sendable () async throws -> Void)? {
        guard case .chain(let chain, _, _, _, let headerProviders, _) = job.work, !headerProviders.isEmpty
        else { return nil }
        return DisplayJob(chain: chain, headerProviders: headerProviders, context: context).round
    }

    /// The body of `job`.
    func runner(for job: JobPlan.Job) -> @Sendable () async throws -> Void {
        let context = self.context
        switch job.work {
        case .chain(let chain, let watch, let maxBackfill, let announce, let headerProviders, let scan):
            let book = self.book(chain)
            let txWatches = config.watches.filter { $0.kind == .tx && $0.chain == chain }
            var driver = ChainDriver(
                chain: chain,
                watch: watch,
                providers: job.providers,
                headerProviders: headerProviders,
                context: context,
                maxBackfill: maxBackfill,
                announce: announce,
                book: book,
                txWatches: txWatches,
                scan: scan
            )
            driver.wakeup = wakeups[chain]
            driver.wallets = wallets[chain] ?? WalletBook()
            let chainProviders = context.chainProviders
            if let trust = TipTrust(chain: chain, watches: config.watches, servesChain: { chainProviders[$0] != nil }) {
                driver.tips = .agreed(AgreedTip(chain: chain, trust: ChainTrust(trust), context: context))
            }
            let configured = driver
            let whileFollowing = job.whileFollowing
            let push = pushStates[chain]
            let hasWallets = !(wallets[chain]?.wallets.isEmpty ?? true)
            return {
                if whileFollowing {
                    guard try !txWatches.isEmpty || hasWallets || !book().entries.isEmpty else { return }
                }
                // While a push connection is up, it says when to look.
                if let push, !push.shouldPoll(now: context.time.elapsed, safety: JobPlan.pushSafetyPoll) { return }
                try await configured.poll()
            }
        case .addresses(let chain, let watch, let strategy):
            let book = self.book(chain)
            var driver = AddressDriver(chain: chain, providers: job.providers, context: context)
            driver.reads = Reads(agree: config.watches.first { $0.id == watch }?.agree ?? 1)
            if strategy == .scan, !canFill(job.providers) {
                // A node has no address index: payments come with the blocks; the starting balances come from its
                // UTXO set once (where it can scan it), the history before the watch is unknown.
                let starting = StartingBalances(chain: chain, providers: job.providers, context: context)
                return { try await starting.fill(try book().watch(watch)) }
            }
            if strategy == .scan {
                // Scanned with each block; this job only fills balances never known, at low priority.
                driver.priority = .backfill
                driver.scope = .unknownBalances
            }
            let pushed = strategy == .poll ? pushedRounds(chain) : nil
            // No block starts the next round of a scanned watch's fill or of rounds the push starts.
            driver.rereadsDropped = driver.scope == .unknownBalances || pushed != nil
            let configured = driver
            guard driver.reads.verifies, driver.scope == .all else {
                return {
                    if try pushed?.leftToPush() == true { return }
                    try await configured.poll(try book().watch(watch))
                }
            }
            // With agree above 1, the next provider reads the summaries once per block too (a provider in charge
            // may hide a payment by leaving it out); every round runs in full, push or not.
            let second = SecondOpinion(chain: chain, watch: watch, context: context)
            return second.body(providers: driver.providers) { providers in
                var driver = configured
                driver.providers = providers
                try await driver.poll(try book().watch(watch))
            }
        case .wallet(let chain, let watch, let strategy):
            guard let book = wallets[chain], let wallet = book.wallets[watch] else { return {} }
            var driver = WalletDriver(
                chain: chain,
                wallet: wallet,
                book: book,
                providers: job.providers,
                context: context
            )
            let watchConfig = config.watches.first { $0.id == watch }
            // `zeroConf.minSeenBy`: a payment in the mempool is asked of the other providers until enough report it.
            driver.reads = Reads(
                agree: watchConfig?.agree ?? 1,
                seenBy: watchConfig?.requests?.zeroConf?.minSeenBy ?? 1
            )
            switch strategy {
            case .scan:
                // Payments come with each scanned block; this job checks the history of new window addresses. A
                // node has no address index: the window is prepared, the blocks grow it.
                driver.mode = canFill(job.providers) ? .checkHistory : .prepareWindow
                driver.priority = .backfill
            case .xpub:
                driver.mode = .xpub
                return driver.round
            case .auto, .poll:
                driver.mode = .poll
            }
            guard driver.reads.verifies, strategy == .poll else { return driver.round }
            // With agree above 1, the next provider reads the window once per block too, as for an `address` watch.
            let configured = driver
            let second = SecondOpinion(chain: chain, watch: watch, context: context)
            return second.body(providers: driver.providers) { providers in
                var driver = configured
                driver.providers = providers
                try await driver.round()
            }
        case .accounts(let chain, let refresh):
            return accountsRunner(chain: chain, providers: job.providers, refresh: refresh)
        case .tx(let chain, let watch):
            guard let config = config.watches.first(where: { $0.id == watch }) else { return {} }
            let driver = TxDriver(watch: config, context: context)
            guard config.agree > 1 else { return driver.poll }
            // With agree above 1, the next provider is asked once per block too: the provider in charge may hide it.
            let second = SecondOpinion(chain: chain, watch: watch, context: context)
            return second.body(providers: driver.providers, needs: .transaction) { providers in
                var driver = driver
                driver.providers = providers
                try await driver.poll()
            }
        case .price(let watch):
            guard let config = config.watches.first(where: { $0.id == watch }) else { return {} }
            return PriceDriver(watch: config, context: context).poll
        case .fee(let chain):
            return FeeDriver(chain: chain, providers: job.providers, context: context).poll
        case .push(let chain, _):
            guard let id = job.providers.first, let pusher = context.chainProviders[id]?.push,
                let state = pushStates[chain]
            else { return {} }
            var driver = PushDriver(
                chain: chain,
                provider: id,
                pusher: pusher,
                context: context,
                book: book(chain),
                state: state,
                blockWake: wakeups[chain]
            )
            driver.wallets = wallets[chain] ?? WalletBook()
            for watch in config.watches where watch.kind == .address && watch.chain == chain && watch.agree > 1 {
                driver.verified[watch.id] = (watch.providers, Reads(agree: watch.agree))
            }
            let configured = driver
            return { await configured.run() }
        case .health(let id):
            return {
                let health = try await context.ask([id], .tip) { try await $0.health() }
                context.logger.debug("health probe", metadata: ["provider": "\(id)", "healthy": "\(health.isHealthy)"])
                await context.scheduler.setHealth(id, healthy: health.isHealthy, reason: health.reason)
            }
        case .recovery(let id):
            return {
                guard !context.scheduler.isReachable(id) else { return }
                if context.chainProviders[id] != nil {
                    _ = try await context.tip([id])
                } else if let feed = context.priceProviders[id] {
                    let currency = [feed.currencies.first ?? "USD"]
                    _ = try await context.scheduler.perform(on: [id], priority: .refresh, budget: context.requestBudget)
                    {
                        _ in try await feed.quotes(for: currency)
                    }
                }
                context.logger.debug("recovery probe", metadata: ["provider": "\(id)"])
            }
        }
    }

    /// What tells the polled address jobs of `chain` that a block's round is the push's to do; `nil` unless the
    /// chain's push connection follows addresses and pushes every change of them (``ChainPushing/pushesEveryChange``).
    func pushedRounds(_ chain: String) -> PushedRounds? {
        guard let push = pushStates[chain], let wakeup = wakeups[chain] else { return nil }
        let job = plan.jobs.first { job in
            if case .push(let pushed, _) = job.work { pushed == chain } else { false }
        }
        guard let pusher = job?.providers.first.flatMap({ context.chainProviders[$0]?.push }),
            pusher.maxAddresses > 0, pusher.pushesEveryChange
        else { return nil }
        return PushedRounds(push: push, wakeup: wakeup, chain: chain, store: context.store)
    }

    /// Whether the first of `providers` reads address summaries, so a scanned watch's balances can be filled (the
    /// planner decides by the first provider too).
    func canFill(_ providers: [String]) -> Bool {
        providers.first.flatMap { context.chainProviders[$0] }?.capabilities.pollsAddresses ?? true
    }

    /// Whether the chain job of `chain` scans each block for the CLI's accounts.
    func scansAccounts(_ chain: String) -> Bool {
        plan.jobs.contains { job in
            guard case .chain(chain, _, _, _, _, let scan?) = job.work else { return false }
            return scan.watches.contains(AddressBook.accountsWatch)
        }
    }

    /// CLI-followed accounts: every run reads the store (no request) and polls accounts never observed at once;
    /// all of them are refreshed every `refresh` (for the mempool and balances). Their confirmed payments come
    /// with each block when the chain is scanned; otherwise a new block triggers a refresh at once.
    func accountsRunner(chain: String, providers: [String], refresh: Duration) -> @Sendable () async throws -> Void {
        let context = self.context
        let book = self.book(chain)
        if !canFill(providers) {
            // A node: payments come with each scanned block, starting balances from its UTXO set.
            let starting = StartingBalances(chain: chain, providers: providers, context: context)
            return {
                let accounts = try book().watch(AddressBook.accountsWatch)
                guard !accounts.entries.isEmpty else { return }
                try await starting.fill(accounts)
            }
        }
        let driver = AddressDriver(chain: chain, providers: providers, context: context)
        let wakeup = scansAccounts(chain) ? nil : wakeups[chain]
        // A block the push covers does not refresh them all; a (re)subscription still does.
        let pushed = wakeup == nil ? nil : pushedRounds(chain)
        let last = Mutex<(refresh: Duration?, generation: UInt64)>((nil, wakeup?.generation ?? 0))
        return {
            let accounts = try book().watch(AddressBook.accountsWatch)
            guard !accounts.entries.isEmpty else { return }
            let now = context.time.elapsed
            let generation = wakeup?.generation ?? 0
            let leftToPush = try pushed?.leftToPush() == true
            let due = last.withLock { last in
                if leftToPush { last.generation = generation }
                return last.refresh.map { now - $0 >= refresh } ?? true || last.generation != generation
            }
            if due {
                try await driver.poll(accounts)
                last.withLock { $0 = (now, generation) }
                return
            }
            let known = try context.store.read { txn in
                Set(try txn.addressStates(chain: chain).filter { $0.summary != nil }.map(\.address))
            }
            let fresh = accounts.entries.filter { !known.contains($0.key) }
            if !fresh.isEmpty { try await driver.poll(AddressBook(entries: fresh)) }
        }
    }
}
