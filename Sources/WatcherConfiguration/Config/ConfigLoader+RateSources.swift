import WatcherCore
import WatcherJSON

/// `requests.rate.sources` against the price watches: a fiat request takes the median of those providers' stored
/// quotes, so each must be a price provider that some price watch asks every round: a `median` watch asks all of
/// its providers, any other watch only its first (the rest only when it fails).
extension ConfigLoader {
    func checkRateSources(
        _ watches: [(path: ConfigPath, config: WatchConfig?)],
        known: [String: ProviderConfig],
        context: ConfigContext
    ) {
        let prices = watches.compactMap(\.config).filter { $0.kind == .price }
        var askedEachRound: Set<String> = []
        for watch in prices {
            if watch.median {
                askedEachRound.formUnion(watch.providers)
            } else if let first = watch.providers.first {
                askedEachRound.insert(first)
            }
        }
        for (path, watch) in watches {
            guard let watch, let sources = watch.requests?.rateSources else { continue }
            let sourcesPath = path.key("requests").key("rate").key("sources")
            for (index, source) in sources.enumerated() {
                let at = sourcesPath.index(index)
                guard let provider = known[source] else {
                    context.error(at, "no provider has id \(JSONValue.quoted(source))")
                    continue
                }
                guard provider.servesPrices else {
                    context.error(at, "provider \(JSONValue.quoted(source)) (\(provider.type)) does not serve prices")
                    continue
                }
                if !askedEachRound.contains(source) {
                    let holders = prices.filter { $0.providers.contains(source) }.map { JSONValue.quoted($0.id) }
                    context.error(
                        at,
                        holders.isEmpty
                            ? "no price watch asks \(JSONValue.quoted(source)): add it to a price watch with "
                                + "\"median\": true"
                            : "\(JSONValue.quoted(source)) is asked by price watch \(holders.joined(separator: ", ")) "
                                + "only when the providers before it fail: set \"median\": true there"
                    )
                }
            }
        }
    }
}
