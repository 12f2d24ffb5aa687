/// What `agree` adds to a watch's job, for `watcher check`.
extension JobPlanner {
    /// `; agree 2 of bb1, bb2, bb3: …` for a watch with `agree` above 1, else empty. Each confirmed payment is
    /// asked by txid of the other verifying providers, in order, until `agree` hold it in the same block: at most
    /// one request per confirmed payment per verifying provider, and none for mempool payments.
    func agreeText(_ watch: WatchConfig) -> String {
        guard watch.agree > 1 else { return "" }
        let known = Dictionary(config.providers.map { ($0.id, $0) }) { first, _ in first }
        let verifiers = WatchConfig.verifiers(watch.providers, known: known)
        let others = max(0, verifiers.count - 1)
        return "; agree \(watch.agree) of \(verifiers.joined(separator: ", ")): a confirmation is announced once "
            + "\(watch.agree) providers hold the transaction in the same block; extra cost at most \(others) "
            + "request\(others == 1 ? "" : "s") per confirmed payment (1 per confirmed payment per verifying "
            + "provider), none for mempool payments; providers more than \(watch.maxLag) blocks behind are set aside"
    }
}
