import WatcherBitcoin
import WatcherCore
import WatcherJSON

extension ConfigLoader {
    func readWatches(_ root: ObjectReader, providers: [(path: ConfigPath, config: ProviderConfig?)])
        -> [(path: ConfigPath, config: WatchConfig?)]
    {
        var result: [(path: ConfigPath, config: WatchConfig?)] = []
        var shown: [JSONValue] = []
        var blocksWatch: [String: String] = [:]
        var wallets: [String: ConfigPath] = [:]
        let known = Dictionary(providers.compactMap(\.config).map { ($0.id, $0) }) { first, _ in first }
        // Ids written in the file, even for entries that failed to decode (their errors are reported already).
        let written = root.members.first { $0.key == "providers" }?.value.arrayValue ?? []
        let declared = Set(written.compactMap { $0["id"]?.stringValue })
        for (path, value) in root.array("watches", doc: "What to follow.") {
            let reader = ObjectReader(value, at: path, context: root.context)
            let watch = readWatch(reader, known: known, declared: declared)
            if let watch, watch.kind == .blocks {
                if let first = blocksWatch[watch.chain] {
                    root.context.error(
                        path.key("type"),
                        "a second blocks watch for chain \(JSONValue.quoted(watch.chain)) (the first is "
                            + "\(JSONValue.quoted(first))): one blocks watch per chain announces its blocks"
                    )
                } else {
                    blocksWatch[watch.chain] = watch.id
                }
            }
            if let watch, let wallet = watch.wallet {
                let key = "\(watch.chain) \(wallet.identity)"
                if let first = wallets[key] {
                    root.context.error(
                        path.key(reader.has("xpub") ? "xpub" : "descriptor"),
                        "the same wallet as \(first) (the same keys and script): follow a wallet once"
                    )
                } else {
                    wallets[key] = path
                }
            }
            reader.finish()
            shown.append(reader.resolvedJSON)
            result.append((path, watch))
        }
        root.show("watches", .array(shown))
        checkRateSources(result, known: known, context: root.context)
        return result
    }

    private func readWatch(_ reader: ObjectReader, known: [String: ProviderConfig], declared: Set<String>)
        -> WatchConfig?
    {
        let context = reader.context
        let id = readID(reader)
        let kindName = reader.choice(
            "type",
            WatchConfig.Kind.allCases.map(\.rawValue),
            doc: "blocks, address, wallet, tx or price."
        )
        let kind = kindName.flatMap(WatchConfig.Kind.init(rawValue:))
        let providerIDs = reader.strings("providers", required: true, doc: "Provider ids, in failover order.")
        if reader.isPresent, providerIDs.isEmpty, reader.raw("providers", type: "string[]", doc: "") != nil {
            context.error(reader.path.key("providers"), "expected at least one provider id")
        }
        let chain = reader.string("chain", default: kind == .price ? nil : "btc", doc: "The chain (chain watches).")
        let every = reader.duration(
            "every",
            default: kind.map(WatchConfig.defaultInterval),
            minimum: .seconds(1),
            doc: "Refresh interval."
        )
        let kindReader = WatchFieldsReader(reader: reader, kind: kind, chain: chain)
        checkProviders(
            providerIDs,
            of: reader,
            kind: kind,
            strategy: kindReader.strategy,
            currency: kindReader.currency,
            known: known,
            declared: declared
        )
        guard let id, let kind, let every else { return nil }
        var watch = WatchConfig(id: id, kind: kind, chain: chain ?? "", providers: providerIDs, every: every)
        kindReader.apply(to: &watch)
        checkStrategy(watch, reader: reader, known: known)
        checkAgree(watch, reader: reader, known: known)
        return watch
    }
}
