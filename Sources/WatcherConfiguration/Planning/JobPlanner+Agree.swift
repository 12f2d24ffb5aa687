import WatcherCore

/// What `agree` adds to a watch's job, for `watcher check`.
extension JobPlanner {
    /// `; agree 2 of bb1, bb2, bb3: …` for a watch with `agree` above 1, else empty. Each confirmed payment is
    /// asked by txid of the other verifying providers, in order, until `agree` hold it in the same block: at most
    /// one request per confirmed payment per verifying provider, and none for mempool payments.
    func agreeText(_ watch: WatchConfig) -> String {
        guard watch.agree > 1 else { return seenByText(watch) }
        let (verifiers, others) = verifiers(watch)
        return "; agree \(watch.agree) of \(verifiers): a confirmation is announced once "
            + "\(watch.agree) providers hold the transaction in the same block; extra cost at most \(others) "
            + "request\(others == 1 ? "" : "s") per confirmed payment (1 per confirmed payment per verifying "
            + "provider), none for mempool payments\(secondOpinionText(watch)); the chain's tip is asked of each of "
            + "them every round (the tip \(watch.agree) share counts confirmations), and providers more than "
            + "\(watch.maxLag) blocks behind or on another chain are set aside" + seenByText(watch)
    }

    /// `; zeroConf.minSeenBy 2 of bb1, bb2, bb3: …` for a wallet whose requests ask it, else empty.
    func seenByText(_ watch: WatchConfig) -> String {
        guard let minimum = watch.requests?.zeroConf?.minSeenBy, minimum > 1 else { return "" }
        let (verifiers, others) = verifiers(watch)
        return "; zeroConf.minSeenBy \(minimum) of \(verifiers): a mempool payment settles "
            + "unconfirmed once \(minimum) of them report it; extra cost at most \(others) "
            + "request\(others == 1 ? "" : "s") per mempool payment per poll while fewer do"
    }

    /// The watch's providers able to look a transaction up, named for `check`, and how many besides the first.
    private func verifiers(_ watch: WatchConfig) -> (names: String, others: Int) {
        let known = Dictionary(config.providers.map { ($0.id, $0) }) { first, _ in first }
        let verifiers = WatchConfig.verifiers(watch.providers, known: known)
        return (verifiers.joined(separator: ", "), max(0, verifiers.count - 1))
    }
}

extension JobPlanner {
    /// The second opinion's summaries once per block, on the watch's second provider (`agree` above 1).
    func secondOpinionCost(_ watch: WatchConfig) -> [String: Double] {
        guard watch.agree > 1, watch.providers.count > 1 else { return [:] }
        let second = watch.providers[1]
        let requests = watch.kind == .tx ? 1 : roundCost(addressCount(watch), on: second).requests
        return [second: Double(requests) * settings.blocksPerHour]
    }

    /// `; a second opinion …` for a polled `address` watch: the next provider's summaries once per block.
    func secondOpinionText(_ watch: WatchConfig) -> String {
        if watch.kind == .tx { return "; a second opinion once per block: the next provider asked too, until settled" }
        guard watch.kind == .address || watch.kind == .wallet, strategy(watch) == .poll else { return "" }
        let count = addressCount(watch)
        return "; a second opinion once per block: \(count) address summar\(count == 1 ? "y" : "ies") from the next "
            + "provider (batched where it can), a history only where it sees more"
    }
}

/// What the agreed tip adds to a chain's tip job.
extension JobPlanner {
    /// The tip job asks every trusted provider its tip each round: their cost beside the primary's, and the words.
    func agreedTip(_ trust: TipTrust, on job: inout JobPlan.Job) {
        let active = job.requestsPerHour > 0
        for id in trust.providers where id != job.providers.first {
            job.alsoAsks[id] = active ? Double(tipCost(id)) * Self.perHour(job.every) : 0
        }
        job.detail +=
            "; agreed tip: the tip of each of \(trust.providers.joined(separator: ", ")) every round, confirmations "
            + "counted from the highest block \(trust.agree) of them share, providers more than \(trust.maxLag) "
            + "blocks behind or on another chain set aside"
    }
}
