import WatcherCore
import WatcherJSON

/// `agree` against the watch's providers: a confirmation is verified by asking the other providers for the
/// transaction, so `agree` can be at most the number of providers that serve transaction lookups.
extension ConfigLoader {
    func checkAgree(_ watch: WatchConfig, reader: ObjectReader, known: [String: ProviderConfig]) {
        checkSeenBy(watch, reader: reader, known: known)
        checkNextBlock(watch, reader: reader, known: known)
        guard watch.agree > 1 else { return }
        let path = reader.path.key("agree")
        let verifying = WatchConfig.verifiers(watch.providers, known: known)
        if watch.agree > verifying.count {
            let named = verifying.isEmpty ? "none" : verifying.map { JSONValue.quoted($0) }.joined(separator: ", ")
            reader.context.error(
                path,
                "agree \(watch.agree) needs \(watch.agree) providers able to verify a transaction (transaction "
                    + "lookups); this watch has \(verifying.count): \(named)"
            )
        }
        if watch.kind != .tx, watch.strategy == .scan || watch.strategy == .xpub {
            reader.context.error(
                reader.path.key("strategy"),
                "agree above 1 verifies the payments a poll finds; \"\(watch.strategy.rawValue)\" is not verified "
                    + "yet: use \"poll\" or \"auto\""
            )
        }
    }
}

extension ConfigLoader {
    /// `requests.zeroConf.minSeenBy` likewise: the other providers are asked for an unconfirmed payment a poll finds.
    func checkSeenBy(_ watch: WatchConfig, reader: ObjectReader, known: [String: ProviderConfig]) {
        guard let minimum = watch.requests?.zeroConf?.minSeenBy, minimum > 1 else { return }
        let path = reader.path.key("requests").key("zeroConf").key("minSeenBy")
        let verifying = WatchConfig.verifiers(watch.providers, known: known)
        if minimum > verifying.count {
            let named = verifying.isEmpty ? "none" : verifying.map { JSONValue.quoted($0) }.joined(separator: ", ")
            reader.context.error(
                path,
                "minSeenBy \(minimum) needs \(minimum) providers able to look up a transaction; this watch has "
                    + "\(verifying.count): \(named)"
            )
        }
        if watch.strategy == .scan || watch.strategy == .xpub {
            reader.context.error(
                path,
                "minSeenBy is counted on the payments a poll finds; strategy \"\(watch.strategy.rawValue)\" does not "
                    + "ask the other providers: use \"poll\" or \"auto\""
            )
        }
    }
}

extension ConfigLoader {
    /// `requests.zeroConf.minFeeRate: "nextBlock"`: the fee job asks the watch's providers that estimate fees.
    func checkNextBlock(_ watch: WatchConfig, reader: ObjectReader, known: [String: ProviderConfig]) {
        guard watch.requests?.zeroConf?.minFeeRateNextBlock == true else { return }
        let estimating = WatchConfig.feeEstimators(watch.providers, known: known)
        guard estimating.isEmpty else { return }
        reader.context.error(
            reader.path.key("requests").key("zeroConf").key("minFeeRate"),
            "\"nextBlock\" needs a provider that estimates fees (blockbook, bitcoind, electrum); this watch has none: "
                + watch.providers.map { JSONValue.quoted($0) }.joined(separator: ", ")
        )
    }
}

extension WatchConfig {
    /// The providers among `ids`, in order, that estimate fee rates (``ChainCapabilities/feeEstimate``).
    public static func feeEstimators(_ ids: [String], known: [String: ProviderConfig]) -> [String] {
        ids.filter { id in
            guard let provider = known[id], provider.servesChain else { return false }
            return provider.chainCapabilities.contains(.feeEstimate)
        }
    }

    /// The providers among `ids`, in order, that can verify a transaction: those that serve transaction lookups.
    public static func verifiers(_ ids: [String], known: [String: ProviderConfig]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { id in
            guard seen.insert(id).inserted, let provider = known[id], provider.servesChain else { return false }
            return provider.chainCapabilities.contains(.transaction)
        }
    }
}
