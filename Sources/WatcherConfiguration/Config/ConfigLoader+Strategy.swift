import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// The `strategy` of a watch against what it follows and what its providers can do.
extension ConfigLoader {
    /// `xpub` needs a wallet watch, a descriptor a wallet-summary endpoint takes (one key: not multisig), and
    /// providers that each serve wallet summaries (a failover provider without them could not take over).
    func checkStrategy(_ watch: WatchConfig, reader: ObjectReader, known: [String: ProviderConfig]) {
        guard watch.strategy == .xpub else { return }
        let path = reader.path.key("strategy")
        guard watch.kind == .wallet else {
            reader.context.error(path, "\"xpub\" is for wallet watches; an address watch takes auto, poll or scan")
            return
        }
        if let wallet = watch.wallet, !wallet.isSingleKey {
            reader.context.error(
                path,
                "\"xpub\" takes a single-key wallet (pkh, sh(wpkh), wpkh, tr or a bare xpub/ypub/zpub); a "
                    + "multisig \(wallet.scriptType) wallet is followed with poll or scan"
            )
        }
        for (index, id) in watch.providers.enumerated() {
            guard let provider = known[id], provider.servesChain else { continue }
            if !provider.chainCapabilities.contains(.walletSummary) {
                reader.context.error(
                    reader.path.key("providers").index(index),
                    "provider \"\(id)\" (\(provider.type)) cannot serve the xpub strategy: it lacks wallet summaries "
                        + "(use poll or scan, or a provider such as blockbook)"
                )
            }
        }
    }
}

extension WalletDescriptor {
    /// Whether one extended key makes the wallet (pkh, sh(wpkh), wpkh, tr): the forms a wallet-summary endpoint
    /// such as Blockbook's `/api/v2/xpub` takes; multisig is not one of them.
    public var isSingleKey: Bool {
        descriptor.keys.count == 1 && extendedKeys.count == 1
            && [.p2pkh, .p2shP2wpkh, .p2wpkh, .p2tr].contains(scriptType)
    }
}
