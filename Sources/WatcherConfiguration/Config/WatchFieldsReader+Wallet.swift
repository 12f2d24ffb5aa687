import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// The fields of a `wallet` watch: the wallet as an output descriptor or a bare SLIP-132 account key, its gap and
/// label. Every refusal names the field and never repeats key material (``WalletError``'s messages do not).
extension WatchFieldsReader {
    /// The gap a wallet gets when none is written (BIP44's).
    static let defaultGap = 20

    mutating func readWallet(_ reader: ObjectReader, wanted: Bool, chain: String?) {
        let context = reader.context
        let descriptorText = reader.string(
            "descriptor",
            doc: "An output descriptor, e.g. wpkh([d34db33f/84h/0h/0h]xpub…/<0;1>/*)#checksum (wallet watches)."
        )
        let keyText = reader.string(
            "xpub",
            doc: "A bare account-level extended public key (xpub/ypub/zpub, tpub/upub/vpub): its prefix gives the "
                + "script; receive 0/* and change 1/* (wallet watches)."
        )
        gap = reader.int(
            "gap",
            default: wanted ? Self.defaultGap : nil,
            range: 1...10_000,
            doc: "Consecutive unused addresses watched past the last used or issued one, per branch (wallet watches)."
        )
        label = reader.string("label", doc: "A label for the wallet's events (wallet watches).")
        guard wanted else { return }
        let path: ConfigPath
        let text: String
        switch (descriptorText, keyText) {
        case (nil, nil):
            if !reader.has("descriptor"), !reader.has("xpub") {
                context.error(
                    reader.path.key("descriptor"),
                    "a wallet watch needs \"descriptor\" (an output descriptor) or \"xpub\" (an account-level key)"
                )
            }
            return
        case (_?, _?):
            context.error(reader.path.key("xpub"), "give either \"descriptor\" or \"xpub\", not both")
            return
        case (let descriptor?, nil):
            path = reader.path.key("descriptor")
            text = descriptor
        case (nil, let key?):
            path = reader.path.key("xpub")
            text = key
            if key.contains("(") {
                context.error(
                    path,
                    "expected a bare extended public key (xpub, ypub, zpub, tpub, upub or vpub); an output "
                        + "descriptor goes in \"descriptor\""
                )
                return
            }
        }
        guard let chain, let network = BitcoinAddress.Network(chain: chain) else {
            context.error(
                reader.path.key("chain"),
                "wallet watches need a Bitcoin chain (btc, btc-testnet, btc-testnet4, btc-signet, tbtc or "
                    + "btc-regtest), got \(JSONValue.quoted(chain ?? ""))"
            )
            return
        }
        let parsed: WalletDescriptor
        do {
            parsed = try WalletDescriptor(parsing: text, network: network)
        } catch {
            context.error(path, error.description)
            return
        }
        if parsed.hasMasterKey {
            context.warning(
                path,
                "a depth-0 master key: its addresses (m/0/i, m/1/i) rarely match a wallet's; give the "
                    + "account-level key (depth 3, e.g. m/84h/0h/0h)"
            )
        } else if keyText != nil, !parsed.isAccountLevel {
            context.warning(
                path,
                "the key is not at the account level (depth 3): its 0/i and 1/i addresses may not be the wallet's"
            )
        }
        if descriptorText != nil { reader.show("descriptor", .string(parsed.descriptor.description)) }
        wallet = parsed
    }
}
