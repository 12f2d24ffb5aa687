import WatcherBitcoin
import WatcherCore

/// The jobs of one chain: its tip (a `blocks` watch, or the implicit tip tracker), its `address` watches, and
/// its CLI-followed accounts.
extension JobPlanner {
    func chainJobs(_ chain: String, providers all: [String]) -> [JobPlan.Job] {
        let watches = config.watches.filter { $0.chain == chain && $0.kind != .price }
        let addressWatches = watches.filter { $0.kind == .address }
        let walletWatches = watches.filter { $0.kind == .wallet }
        let followers = watches.filter { $0.followsAddresses || $0.kind == .tx }
        let accounts = settings.accounts[chain] ?? 0
        var jobs: [JobPlan.Job] = []
        var strategies: [String: WatchConfig.AddressStrategy] = [:]
        for watch in addressWatches + walletWatches { strategies[watch.id] = strategy(watch) }
        let scanned = (addressWatches + walletWatches).filter { strategies[$0.id] == .scan }.map(\.id)
        if let blocks = watches.first(where: { $0.kind == .blocks }) {
            jobs.append(
                tipJob(
                    chain,
                    name: "watch \(blocks.id)",
                    watch: blocks.id,
                    providers: blocks.providers,
                    every: blocks.every,
                    maxBackfill: blocks.maxBackfill,
                    announce: true,
                    active: true,
                    scanned: scanned
                )
            )
        } else {
            var ordered: [String] = []
            for id in followers.flatMap(\.providers) + all where !ordered.contains(id) && has(id, .tip) {
                ordered.append(id)
            }
            if !ordered.isEmpty {
                jobs.append(
                    tipJob(
                        chain,
                        name: "tip \(chain)",
                        watch: "tip-\(chain)",
                        providers: ordered,
                        every: watches.map(\.every).min() ?? settings.tipInterval,
                        maxBackfill: 0,
                        announce: false,
                        active: !followers.isEmpty || accounts > 0,
                        scanned: scanned
                    )
                )
            }
        }
        if !jobs.isEmpty, let trust = TipTrust(chain: chain, watches: config.watches, servesChain: { has($0, .tip) }) {
            agreedTip(trust, on: &jobs[0])
        }
        if let push = pushJob(
            chain,
            tip: jobs.first,
            addressWatches: addressWatches + walletWatches,
            accounts: accounts
        ) {
            jobs.append(push)
        }
        for watch in addressWatches {
            let (requests, how) = roundCost(watch.addresses.count, on: watch.providers.first)
            let chosen = strategies[watch.id] ?? .poll
            let choice = choiceText(watch, picked: chosen)
            if chosen == .scan {
                jobs.append(
                    .init(
                        name: "watch \(watch.id)",
                        work: .addresses(chain: chain, watch: watch.id, strategy: .scan),
                        providers: watch.providers,
                        every: watch.every,
                        requestsPerHour: 0,
                        detail: "scanned with each block; "
                            + (noIndexText(watch) ?? "balances filled once at low priority (\(how))") + "; " + choice,
                        whileFollowing: false
                    )
                )
            } else {
                jobs.append(
                    .init(
                        name: "watch \(watch.id)",
                        work: .addresses(chain: chain, watch: watch.id, strategy: .poll),
                        providers: watch.providers,
                        every: watch.every,
                        requestsPerHour: Double(requests) * (Self.perHour(watch.every) + settings.blocksPerHour),
                        detail: "\(how) every \(watch.every.configText) and after each new block, plus history when "
                            + "a balance changes; "
                            + choice + agreeText(watch),
                        whileFollowing: false,
                        alsoAsks: secondOpinionCost(watch)
                    )
                )
            }
        }
        for watch in walletWatches {
            jobs.append(walletJob(watch, chain: chain, picked: strategies[watch.id] ?? .poll))
        }
        let accountsScanned = jobs.contains { job in
            guard case .chain(_, _, _, _, _, let scan?) = job.work else { return false }
            return scan.watches.contains(JobPlan.accountsWatch)
        }
        var accountProviders = addressWatches.first?.providers ?? all.filter { has($0, .address) }
        // A node has no address index: its accounts' payments come with the scanned blocks, their starting balances
        // from its UTXO set.
        if accountProviders.isEmpty, accountsScanned { accountProviders = all.filter { has($0, .utxoScan) } }
        let onNode = accountProviders.first.map { !has($0, .address) && has($0, .utxoScan) } ?? false
        if !accountProviders.isEmpty {
            let refresh = settings.accountsInterval
            let (requests, how) = roundCost(accounts, on: accountProviders.first)
            let detail =
                onNode
                ? "starting balances of \(accounts) CLI-followed account(s) read once from "
                    + "\(accountProviders[0])'s UTXO set (scantxoutset); their confirmed payments come with each "
                    + "scanned block"
                : "\(how) every \(refresh.configText) for CLI-followed accounts, new ones at once; "
                    + (accountsScanned
                        ? "their confirmed payments come with each scanned block" : "and after each new block")
            jobs.append(
                .init(
                    name: "accounts \(chain)",
                    work: .accounts(chain: chain, refresh: refresh),
                    providers: accountProviders,
                    every: settings.accountsCheck,
                    requestsPerHour: onNode
                        ? 0
                        : Double(requests)
                            * (Self.perHour(refresh) + (accountsScanned ? 0 : settings.blocksPerHour)),
                    detail: accounts == 0
                        ? "no CLI-followed accounts (the store is read every \(settings.accountsCheck.configText))"
                        : detail,
                    whileFollowing: true
                )
            )
        }
        return jobs
    }

    func tipJob(
        _ chain: String,
        name: String,
        watch: String,
        providers: [String],
        every: Duration,
        maxBackfill: Int,
        announce: Bool,
        active: Bool,
        scanned: [String]
    ) -> JobPlan.Job {
        let headerProviders = providers.filter { has($0, .block) }
        let scanProviders = providers.filter { has($0, .blockTransactions) }
        // The CLI's accounts are scanned wherever blocks can be: their payments then come with each block.
        let scan =
            scanProviders.isEmpty || headerProviders.isEmpty
            ? nil : JobPlan.Scan(watches: scanned + [JobPlan.accountsWatch], providers: scanProviders)
        let cost = tipCost(providers.first)
        // A push connection (Blockbook's websocket, an Electrum server's subscriptions) replaces the tip's polling
        // while it is up: the tip is read on each pushed block and by a safety poll; `every` applies while it is down.
        let pushed =
            (providers.first.flatMap { config.provider($0)?.pushAddresses } ?? 0) > 0 && every < JobPlan.pushSafetyPoll
        let tips = pushed ? Self.perHour(JobPlan.pushSafetyPoll) + settings.blocksPerHour : Self.perHour(every)
        var perHour = Double(cost) * tips + (headerProviders.isEmpty ? 0 : settings.blocksPerHour)
        var detail =
            (pushed
                ? "tip on each pushed block and every \(JobPlan.pushSafetyPoll.configText) while the push is up (every "
                    + "\(every.configText) while it is down)"
                : "tip every \(every.configText)") + (cost > 1 ? " (\(cost) requests each)" : "")
        detail += headerProviders.isEmpty ? " (no block headers)" : " + ~\(Int(settings.blocksPerHour)) block headers"
        let scannedNow = scanned + ((settings.accounts[chain] ?? 0) > 0 ? ["CLI accounts"] : [])
        if scan != nil, !scannedNow.isEmpty {
            perHour += settings.blocksPerHour * Double(JobPlan.pagesPerBlock)
            detail +=
                " + ~\(JobPlan.pagesPerBlock) transaction pages per block, scanned for "
                + scannedNow.joined(separator: ", ")
        }
        if !active { detail = "idle until an address or txid of \(chain) is followed; then " + detail }
        return .init(
            name: name,
            work: .chain(
                chain: chain,
                watch: watch,
                maxBackfill: maxBackfill,
                announce: announce,
                headerProviders: headerProviders,
                scan: scan
            ),
            providers: providers,
            every: every,
            requestsPerHour: active ? perHour : 0,
            detail: detail,
            whileFollowing: !announce
        )
    }
}

/// The strategy of each `address` watch.
extension JobPlanner {
    /// The addresses one round of `watch` asks about: an address watch's, or a wallet's window (both branches).
    func addressCount(_ watch: WatchConfig) -> Int {
        guard watch.kind == .wallet else { return watch.addresses.count }
        let branches = watch.wallet?.change == nil ? 1 : 2
        return settings.walletWindows[watch.id] ?? branches * watch.gap
    }

    /// Requests per hour of following `watch` by polling (nil when its first provider has no address index), by
    /// scanning (nil when its providers cannot) and by the wallet summary (nil unless a single-key wallet whose first
    /// provider serves it).
    func costs(_ watch: WatchConfig) -> (poll: Double?, scan: Double?, xpub: Double?) {
        let (requests, _) = roundCost(addressCount(watch), on: watch.providers.first)
        let rounds = Self.perHour(watch.every) + settings.blocksPerHour
        let poll = canPoll(watch) ? Double(requests) * rounds : nil
        let canScan = watch.providers.contains { has($0, .blockTransactions) && has($0, .block) }
        let canXpub =
            watch.kind == .wallet && watch.wallet?.isSingleKey == true
            && watch.providers.first.map { has($0, .walletSummary) } == true
        return (poll, canScan ? settings.blocksPerHour * Double(JobPlan.pagesPerBlock) : nil, canXpub ? rounds : nil)
    }

    /// Whether the watch's first provider reads address summaries and histories (a node does not: it scans).
    func canPoll(_ watch: WatchConfig) -> Bool {
        watch.providers.first.flatMap { config.provider($0) }?.chainCapabilities.pollsAddresses ?? true
    }

    /// What a scanned watch on a provider without an address index cannot know, for `watcher check`.
    func noIndexText(_ watch: WatchConfig) -> String? {
        guard !canPoll(watch) else { return nil }
        let first = watch.providers.first ?? "?"
        if watch.providers.first.map({ has($0, .utxoScan) }) == true {
            return "starting balances read once from \(first)'s UTXO set (scantxoutset, one long request apart "
                + "from the others); the history before the watch started is not known (no events for it, no totals "
                + "or transaction counts), payments from its start are"
        }
        return "no balance fill: \(watch.providers.first ?? "?") has no address index, so payments before the watch "
            + "started and the starting balances are not known (payments from its start are)"
    }

    /// `auto` takes the wallet summary when it is no dearer than polling and fits in half the provider's budget (it
    /// sees the mempool as polling does, in one request); else polls while polling fits in half the budget (polling
    /// also sees the mempool), and scans beyond that: then the cost grows with blocks, not addresses. A provider
    /// without an address index (a node) can only scan.
    func strategy(_ watch: WatchConfig) -> WatchConfig.AddressStrategy {
        let (poll, scan, xpub) = costs(watch)
        guard let poll else { return .scan }
        let half =
            (watch.providers.first.flatMap { config.provider($0) }?.rateLimit.withSafetyMargin.requestsPerHour
                ?? .infinity) / 2
        // Only polled payments are verified across providers.
        if watch.agree > 1 { return .poll }
        switch watch.strategy {
        case .poll: return .poll
        case .scan: return scan == nil ? .poll : .scan
        case .xpub: return xpub == nil ? .poll : .xpub
        case .auto:
            if let xpub, xpub <= poll, xpub <= half { return .xpub }
            guard scan != nil else { return .poll }
            return poll <= half ? .poll : .scan
        }
    }

    func choiceText(_ watch: WatchConfig, picked: WatchConfig.AddressStrategy) -> String {
        let (poll, scan, xpub) = costs(watch)
        var text =
            poll.map { "poll \(Int($0.rounded()))/h (mempool and blocks within \(watch.every.configText))" }
            ?? "poll n/a (\(watch.providers.first ?? "?") has no address index)"
        // A node reads its mempool beside the block scan (capability `mempool`).
        let mempool =
            watch.providers.first.flatMap { config.provider($0) }?.chainCapabilities.contains(.mempool) ?? false
        let seen = mempool ? "mempool by the mempool job's round" : "no mempool"
        text += scan.map { ", scan \(Int($0.rounded()))/h (blocks by the next block, \(seen))" } ?? ", scan n/a"
        if watch.kind == .wallet {
            text +=
                xpub.map {
                    ", xpub \(Int($0.rounded()))/h (1 request per round, mempool and blocks within "
                        + "\(watch.every.configText))"
                } ?? ", xpub n/a"
        }
        let first = watch.providers.first.flatMap { config.provider($0) }
        let capacity = first?.pushAddresses ?? 0
        if capacity > 0 {
            text += ", push 0/h with the scan or poll (mempool within a second, up to \(capacity) addresses)"
        } else {
            text += first?.type == "blockbook" ? ", push off (\"websocket\": false)" : ", push n/a"
        }
        text += "; " + (watch.strategy == .auto ? "auto picks \(picked.rawValue)" : "\(picked.rawValue) as configured")
        // Which path the watch takes, in so many words.
        return text
            + (capacity > 0
                ? "; path: push, with \(picked.rawValue) beside it (alone while the push is down or refused)"
                : "; path: \(picked.rawValue) only")
    }
}

/// The push connection of a chain.
extension JobPlanner {
    /// The push job of `chain`, when the first provider of its tip job has push enabled.
    func pushJob(_ chain: String, tip: JobPlan.Job?, addressWatches: [WatchConfig], accounts: Int) -> JobPlan.Job? {
        guard let tip, case .chain = tip.work, let provider = tip.providers.first,
            let capacity = config.provider(provider)?.pushAddresses
        else { return nil }
        guard capacity > 0 else {
            return .init(
                name: "push \(chain)",
                work: .push(chain: chain, addresses: 0),
                providers: [provider],
                every: .seconds(1),
                requestsPerHour: 0,
                detail: "ZMQ hint: a block message, a reconnect or a lost message starts the tip job at once, a "
                    + "mempool message the mempool job; both still poll at their interval (polling is the truth); "
                    + "follows no addresses",
                whileFollowing: false
            )
        }
        let followed = addressWatches.reduce(accounts) { $0 + addressCount($1) }
        let connection = config.provider(provider)?.type == "electrum" ? "scripthash subscriptions" : "websocket"
        var detail =
            "\(connection): new blocks start the tip job at once and replace its polling while connected (a safety "
            + "poll every \(JobPlan.pushSafetyPoll.configText)); mempool payments of "
        detail +=
            followed > capacity
            ? "\(capacity) of the \(followed) followed addresses (the rest wait for their poll or scan)"
            : "every followed address"
        detail += ", applied from the push with no request"
        return .init(
            name: "push \(chain)",
            work: .push(chain: chain, addresses: capacity),
            providers: [provider],
            every: .seconds(1),
            requestsPerHour: 0,
            detail: detail,
            whileFollowing: false
        )
    }
}
