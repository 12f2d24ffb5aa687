import WatcherCore

/// The job of a `wallet` watch.
extension JobPlanner {
    func walletJob(_ watch: WatchConfig, chain: String, picked: WatchConfig.AddressStrategy) -> JobPlan.Job {
        let count = addressCount(watch)
        let (requests, how) = roundCost(count, on: watch.providers.first)
        let window =
            settings.walletWindows[watch.id] == nil
            ? "a first window of \(count) addresses (gap \(watch.gap) per branch)"
            : "a window of \(count) addresses (gap \(watch.gap))"
        let sync = "initial sync: \(how) for \(window), more as payments grow it"
        let choice = choiceText(watch, picked: picked)
        if picked == .xpub {
            return .init(
                name: "watch \(watch.id)",
                work: .wallet(chain: chain, watch: watch.id, strategy: .xpub),
                providers: watch.providers,
                every: watch.every,
                requestsPerHour: Self.perHour(watch.every) + settings.blocksPerHour,
                detail: "1 wallet-summary request every \(watch.every.configText) and after each new block, for "
                    + "both branches up to the last used address + gap (more pages only past 1000 new "
                    + "transactions); " + choice,
                whileFollowing: false
            )
        }
        if picked == .scan {
            return .init(
                name: "watch \(watch.id)",
                work: .wallet(chain: chain, watch: watch.id, strategy: .scan),
                providers: watch.providers,
                every: watch.every,
                requestsPerHour: 0,
                detail: "scanned with each block against the script index (the same requests for 1 or 100 wallets); "
                    + (noIndexText(watch) ?? sync + " at low priority") + "; " + choice,
                whileFollowing: false
            )
        }
        return .init(
            name: "watch \(watch.id)",
            work: .wallet(chain: chain, watch: watch.id, strategy: .poll),
            providers: watch.providers,
            every: watch.every,
            requestsPerHour: Double(requests) * (Self.perHour(watch.every) + settings.blocksPerHour),
            detail: "\(how) every \(watch.every.configText) and after each new block over \(window), plus history "
                + "when a balance changes; " + choice + agreeText(watch),
            whileFollowing: false,
            alsoAsks: secondOpinionCost(watch)
        )
    }
}
