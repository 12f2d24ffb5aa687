import WatcherCore
import WatcherJSON

extension ConfigLoader {
    /// Checks every provider a watch lists, failover ones included: it exists, it serves the data the watch's
    /// type needs (every required chain capability, or prices), and a price watch's currency is one it quotes.
    func checkProviders(
        _ providerIDs: [String],
        of reader: ObjectReader,
        kind: WatchConfig.Kind?,
        strategy: WatchConfig.AddressStrategy? = nil,
        currency: String?,
        known: [String: ProviderConfig],
        declared: Set<String>
    ) {
        let context = reader.context
        for (index, providerID) in providerIDs.enumerated() {
            let path = reader.path.key("providers").index(index)
            guard let provider = known[providerID] else {
                if !declared.contains(providerID) {
                    var message = "no provider has id \(JSONValue.quoted(providerID))"
                    if let guess = Spelling.suggestion(for: providerID, among: Array(declared)) {
                        message += "; did you mean \"\(guess)\"?"
                    } else if !declared.isEmpty {
                        message += "; providers: \(declared.sorted().joined(separator: ", "))"
                    }
                    context.error(path, message)
                }
                continue
            }
            guard let kind else { continue }
            let name = "provider \"\(providerID)\" (\(provider.type))"
            if kind == .price {
                guard provider.servesPrices else {
                    context.error(path, "\(name) does not serve prices")
                    continue
                }
                if let currency, let quoted = provider.priceCurrencies, !quoted.contains(currency.uppercased()) {
                    context.error(
                        reader.path.key("currency"),
                        "\(name) does not quote \(currency.uppercased()); it quotes "
                            + (quoted.isEmpty ? "none" : quoted.joined(separator: ", "))
                    )
                }
                continue
            }
            guard provider.servesChain else {
                context.error(path, "\(name) does not serve chain data")
                continue
            }
            let missing = kind.requiredChainCapabilities.subtracting(provider.chainCapabilities)
            // A node without an address index serves address and wallet watches by scanning its blocks.
            if kind == .address || kind == .wallet, !missing.isEmpty,
                provider.chainCapabilities.isSuperset(of: .blockScan)
            {
                if strategy == .poll {
                    context.error(
                        reader.path.key("strategy"),
                        "\(name) has no address index, so it cannot poll addresses: use \"scan\" or \"auto\" "
                            + "(its blocks are scanned)"
                    )
                }
                continue
            }
            // An address index without block contents (an Electrum server, blockchain.info): a scan is polled.
            if kind == .address || kind == .wallet, strategy == .scan, missing.isEmpty,
                !provider.chainCapabilities.isSuperset(of: .blockScan)
            {
                context.warning(
                    reader.path.key("strategy"),
                    "\(name) serves no block transactions, so it cannot scan blocks: the watch is polled instead "
                        + "(write \"poll\" or \"auto\", or put a bitcoind or blockbook provider first)"
                )
            }
            if !missing.isEmpty {
                context.error(
                    path,
                    "\(name) cannot serve \(kind.rawValue) watches: it lacks \(Self.listed(missing.phrases))"
                )
            }
        }
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}
