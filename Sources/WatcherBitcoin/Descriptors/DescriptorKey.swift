/// A descriptor KEY expression: an optional origin, a public key, and for extended keys the steps to
/// derive, an optional multipath tuple `<a;b>` and an optional final `/*`.
///
/// Only public, CKDpub-derivable keys exist as values of this type: the parser refuses private keys and
/// hardened steps after the key. The key at the end of each branch's fixed steps is derived once, so each
/// address costs one CKDpub.
public struct DescriptorKey: Sendable, Hashable, CustomStringConvertible {
    /// The key itself.
    public enum Material: Sendable, Hashable {
        /// An extended public key (printed with the plain `xpub`/`tpub` version).
        case extended(ExtendedPublicKey)
        /// A hex public key: 33 bytes compressed or 65 bytes uncompressed.
        case publicKey([UInt8])
        /// A 32-byte x-only key (only in `tr()`).
        case xOnly([UInt8])
    }

    /// The `[fingerprint/path]` before the key, if given.
    public let origin: KeyOrigin?
    /// The key.
    public let material: Material
    /// Non-hardened steps after the key, before the multipath tuple (all the steps when there is none).
    public let path: [UInt32]
    /// The indices of the `<a;b;…>` tuple, if any: one branch each.
    public let multipath: [UInt32]?
    /// Non-hardened steps after the multipath tuple.
    public let pathAfterMultipath: [UInt32]
    /// Whether the key ends in `/*`.
    public let isRanged: Bool
    /// The extended key at the end of the fixed steps, parsed for CKDpub, one per branch (empty for
    /// non-extended keys).
    let branchKeys: [Secp256k1.ChildDeriver]

    /// Creates a key from an extended public key and its derivation, deriving each branch's fixed steps.
    /// - Throws: ``DescriptorError/hardenedStep(_:)`` for a hardened step,
    ///   ``DescriptorError/invalidMultipath(_:)`` for a tuple of fewer than two indices, or
    ///   ``DescriptorError/derivation(_:)``.
    public init(
        origin: KeyOrigin?,
        extendedKey: ExtendedPublicKey,
        path: [UInt32],
        multipath: [UInt32]?,
        pathAfterMultipath: [UInt32],
        isRanged: Bool
    ) throws(DescriptorError) {
        if let multipath, multipath.count < 2 { throw .invalidMultipath("it needs at least two indices") }
        let steps = path + (multipath ?? []) + pathAfterMultipath
        if let hardened = steps.first(where: { $0 >= Secp256k1.hardenedOffset }) {
            throw .hardenedStep(DerivationPath.format(hardened, hardenedMarker: "h"))
        }
        let key = extendedKey.with(version: extendedKey.version.plain)
        var branchKeys: [Secp256k1.ChildDeriver] = []
        for branch in multipath.map({ $0.map { [$0] } }) ?? [[]] {
            let branchKey: ExtendedPublicKey
            do {
                branchKey = try key.derive(path + branch + pathAfterMultipath)
            } catch {
                throw .derivation(error)
            }
            do {
                branchKeys.append(
                    try Secp256k1.ChildDeriver(publicKey: branchKey.publicKey, chainCode: branchKey.chainCode)
                )
            } catch {
                throw .publicKey(error)
            }
        }
        self.init(
            origin: origin,
            material: .extended(key),
            path: path,
            multipath: multipath,
            pathAfterMultipath: pathAfterMultipath,
            isRanged: isRanged,
            branchKeys: branchKeys
        )
    }

    /// Creates a key from parts already checked by the parser.
    init(
        origin: KeyOrigin?,
        material: Material,
        path: [UInt32],
        multipath: [UInt32]?,
        pathAfterMultipath: [UInt32],
        isRanged: Bool,
        branchKeys: [Secp256k1.ChildDeriver]
    ) {
        self.origin = origin
        self.material = material
        self.path = path
        self.multipath = multipath
        self.pathAfterMultipath = pathAfterMultipath
        self.isRanged = isRanged
        self.branchKeys = branchKeys
    }

    /// Parses a lone KEY expression (BIP380), as at the top level of a descriptor: compressed and
    /// uncompressed hex keys and extended public keys, with origin and steps.
    /// - Throws: a ``DescriptorError``; ``DescriptorError/privateKey(kind:)`` for xprv/tprv/WIF and
    ///   ``DescriptorError/hardenedStep(_:)`` for hardened steps after the key (the watch-only checks).
    public init(_ text: String, network: BitcoinAddress.Network) throws(DescriptorError) {
        var parser = DescriptorParser(network: network)
        let key = try parser.parseKey(text[...], in: .init(function: "key", compressedOnly: false, xOnly: false))
        if let problem = parser.watchOnlyProblem { throw problem }
        self = key
    }

    /// The extended key, if the key is one.
    public var extendedKey: ExtendedPublicKey? {
        if case .extended(let key) = material { key } else { nil }
    }

    /// The number of branches: the tuple's length, or 1 without a tuple.
    public var branchCount: Int { multipath?.count ?? 1 }

    /// The same key with its multipath tuple replaced by the tuple's element for `branch`.
    public func selecting(branch: Int) -> DescriptorKey {
        guard let multipath, multipath.indices.contains(branch) else { return self }
        return DescriptorKey(
            origin: origin,
            material: material,
            path: path + [multipath[branch]] + pathAfterMultipath,
            multipath: nil,
            pathAfterMultipath: [],
            isRanged: isRanged,
            branchKeys: [branchKeys[branch]]
        )
    }

    /// The public key at `index` of `branch` (the index is ignored when the key is not ranged): 33 bytes
    /// for extended keys, the bytes as given for hex keys.
    public func publicKey(branch: Int = 0, index: UInt32 = 0) throws(DescriptorError) -> [UInt8] {
        switch material {
        case .publicKey(let bytes), .xOnly(let bytes): return bytes
        case .extended:
            let key = branchKeys[multipath == nil ? 0 : branch]
            guard isRanged else { return key.publicKey }
            guard index < Secp256k1.hardenedOffset else { throw .indexOutOfRange(index) }
            do {
                return try key.child(index).publicKey
            } catch {
                throw .derivation(.invalidChild(index))
            }
        }
    }

    /// The derivation path of the key at `index` of `branch`: from the master key when the origin is known
    /// (`m/84'/0'/0'/0/7`), else relative to the key given (`0/7`).
    public func derivationPath(branch: Int = 0, index: UInt32 = 0) -> DerivationPath {
        var tuple: [UInt32] = []
        if let multipath { tuple = [multipath[multipath.indices.contains(branch) ? branch : 0]] }
        let steps = path + tuple + pathAfterMultipath + (isRanged ? [index] : [])
        guard let origin else { return DerivationPath(steps, isAbsolute: false) }
        return origin.path.appending(steps)
    }

    /// The normalised KEY: origin with `h`, the key (extended keys as `xpub`/`tpub`), steps, `<a;b>`, `/*`.
    public var description: String { formatted(includingOrigin: true) }

    /// The KEY with or without its origin.
    func formatted(includingOrigin: Bool) -> String {
        var text = includingOrigin ? origin?.description ?? "" : ""
        switch material {
        case .extended(let key): text += key.string
        case .publicKey(let bytes), .xOnly(let bytes): text += Hex.encode(bytes)
        }
        for step in path { text += "/" + String(step) }
        if let multipath { text += "/<" + multipath.map { String($0) }.joined(separator: ";") + ">" }
        for step in pathAfterMultipath { text += "/" + String(step) }
        if isRanged { text += "/*" }
        return text
    }
}
