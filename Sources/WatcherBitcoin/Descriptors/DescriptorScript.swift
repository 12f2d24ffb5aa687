/// The script expression of a descriptor, as a tree.
public indirect enum DescriptorScript: Sendable, Hashable, CustomStringConvertible {
    /// `pk(KEY)`: pay to a bare public key.
    case pk(DescriptorKey)
    /// `pkh(KEY)`: P2PKH.
    case pkh(DescriptorKey)
    /// `wpkh(KEY)`: P2WPKH.
    case wpkh(DescriptorKey)
    /// `sh(SCRIPT)`: P2SH of the inner script.
    case sh(DescriptorScript)
    /// `wsh(SCRIPT)`: P2WSH of the inner script.
    case wsh(DescriptorScript)
    /// `multi(k,KEY,…)` or, when `sorted`, `sortedmulti(k,KEY,…)`: k-of-n `OP_CHECKMULTISIG`.
    case multi(threshold: Int, keys: [DescriptorKey], sorted: Bool)
    /// `tr(KEY)`: taproot with the key path only (BIP86).
    case tr(DescriptorKey)
    /// `addr(ADDRESS)`: a fixed address.
    case addr(BitcoinAddress)
    /// `raw(HEX)`: a fixed script.
    case raw([UInt8])

    /// Every key, in the order written.
    public var keys: [DescriptorKey] {
        switch self {
        case .pk(let key), .pkh(let key), .wpkh(let key), .tr(let key): [key]
        case .sh(let inner), .wsh(let inner): inner.keys
        case .multi(_, let keys, _): keys
        case .addr, .raw: []
        }
    }

    /// The wallet script type, when the expression is one of the six a wallet can be: `pkh`, `sh(wpkh)`,
    /// `wpkh`, `tr`, `wsh(multi|sortedmulti)`, `sh(wsh(multi|sortedmulti))`.
    public var scriptType: ScriptType? {
        switch self {
        case .pkh: .p2pkh
        case .wpkh: .p2wpkh
        case .tr: .p2tr
        case .sh(.wpkh): .p2shP2wpkh
        case .wsh(.multi): .p2wsh
        case .sh(.wsh(.multi)): .p2shP2wsh
        default: nil
        }
    }

    /// The functions without their keys, e.g. `sh(pk(KEY))`, to name an expression in messages.
    public var shape: String {
        switch self {
        case .pk: "pk(KEY)"
        case .pkh: "pkh(KEY)"
        case .wpkh: "wpkh(KEY)"
        case .tr: "tr(KEY)"
        case .sh(let inner): "sh(" + inner.shape + ")"
        case .wsh(let inner): "wsh(" + inner.shape + ")"
        case .multi(_, _, let sorted): sorted ? "sortedmulti(k,KEY,…)" : "multi(k,KEY,…)"
        case .addr: "addr(ADDRESS)"
        case .raw: "raw(HEX)"
        }
    }

    /// The expression with every key replaced by `transform(key)`.
    func mapKeys(_ transform: (DescriptorKey) -> DescriptorKey) -> DescriptorScript {
        switch self {
        case .pk(let key): .pk(transform(key))
        case .pkh(let key): .pkh(transform(key))
        case .wpkh(let key): .wpkh(transform(key))
        case .tr(let key): .tr(transform(key))
        case .sh(let inner): .sh(inner.mapKeys(transform))
        case .wsh(let inner): .wsh(inner.mapKeys(transform))
        case .multi(let threshold, let keys, let sorted):
            .multi(threshold: threshold, keys: keys.map(transform), sorted: sorted)
        case .addr, .raw: self
        }
    }

    /// The normalised text, without checksum.
    public var description: String { formatted(includingOrigins: true) }

    /// The normalised text, with or without key origins.
    func formatted(includingOrigins: Bool) -> String {
        switch self {
        case .pk(let key): "pk(" + key.formatted(includingOrigin: includingOrigins) + ")"
        case .pkh(let key): "pkh(" + key.formatted(includingOrigin: includingOrigins) + ")"
        case .wpkh(let key): "wpkh(" + key.formatted(includingOrigin: includingOrigins) + ")"
        case .tr(let key): "tr(" + key.formatted(includingOrigin: includingOrigins) + ")"
        case .sh(let inner): "sh(" + inner.formatted(includingOrigins: includingOrigins) + ")"
        case .wsh(let inner): "wsh(" + inner.formatted(includingOrigins: includingOrigins) + ")"
        case .multi(let threshold, let keys, let sorted):
            (sorted ? "sortedmulti(" : "multi(") + String(threshold) + ","
                + keys.map { $0.formatted(includingOrigin: includingOrigins) }.joined(separator: ",") + ")"
        case .addr(let address): "addr(" + address.string + ")"
        case .raw(let bytes): "raw(" + Hex.encode(bytes) + ")"
        }
    }
}
