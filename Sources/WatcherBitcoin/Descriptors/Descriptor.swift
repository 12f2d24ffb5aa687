/// An output descriptor (BIP380): a script expression over public keys, with its network.
///
/// Parse one with ``init(_:network:)``. It accepts `pk`, `pkh`, `wpkh`, `sh`, `wsh`, `multi`, `sortedmulti`,
/// `tr(KEY)` (key path only), `addr` and `raw`, with the nesting rules of BIP381-386, KEY expressions of
/// BIP380 with BIP389 multipath tuples, and an optional `#checksum`, which is verified. Print it back with
/// ``description``: normalised (`h` for hardened, `xpub`/`tpub`, lower-case hex) with its checksum.
public struct Descriptor: Sendable, Hashable, CustomStringConvertible {
    /// The script expression.
    public let script: DescriptorScript
    /// The network of its keys and addresses.
    public let network: BitcoinAddress.Network

    /// Parses and checks a descriptor.
    ///
    /// Order of checks: characters and checksum; syntax and nesting (e.g. `wpkh()` inside `wsh()`), key
    /// encodings, compressed keys under segwit and taproot, path steps and tuples; tuple lengths across
    /// keys; finally the watch-only rules: no private key (``DescriptorError/privateKey(kind:)``) and no
    /// hardened step after an extended key (``DescriptorError/hardenedStep(_:)``).
    /// - Parameters:
    ///   - text: the descriptor, with or without `#checksum`.
    ///   - network: the network extended keys and `addr()` must belong to.
    /// - Throws: a ``DescriptorError`` naming the offending part.
    public init(_ text: String, network: BitcoinAddress.Network) throws(DescriptorError) {
        let body = try DescriptorChecksum.verified(text)
        var parser = DescriptorParser(network: network)
        let script = try parser.parseScript(body, in: .top)
        try parser.finish(script)
        self.init(script: script, network: network)
    }

    /// Wraps a script expression already checked.
    public init(script: DescriptorScript, network: BitcoinAddress.Network) {
        self.script = script
        self.network = network
    }

    /// The normalised descriptor without checksum.
    public var body: String { script.description }

    /// The BIP380 checksum of ``body``.
    public var checksum: String { DescriptorChecksum.checksum(body) ?? "" }

    /// `body#checksum`, the form to print and to hand to other wallets.
    public var description: String { body + "#" + checksum }

    /// Every key, in the order written.
    public var keys: [DescriptorKey] { script.keys }

    /// Whether some key ends in `/*`, so the descriptor describes a range of scripts.
    public var isRanged: Bool { keys.contains { $0.isRanged } }

    /// The number of branches: the length of the multipath tuples, or 1.
    public var branchCount: Int { keys.map(\.branchCount).max() ?? 1 }

    /// The wallet script type, if the descriptor has one of the six wallet shapes.
    public var scriptType: ScriptType? { script.scriptType }

    /// The descriptor of one branch: each multipath tuple replaced by its element `branch` (BIP389).
    /// - Throws: ``DescriptorError/branchOutOfRange(_:count:)``.
    public func branch(_ branch: Int) throws(DescriptorError) -> Descriptor {
        guard (0..<branchCount).contains(branch) else { throw .branchOutOfRange(branch, count: branchCount) }
        return Descriptor(script: script.mapKeys { $0.selecting(branch: branch) }, network: network)
    }

    /// The single-path descriptors a multipath descriptor expands into, in tuple order; `[self]` without a
    /// tuple. For `<0;1>` the first is the receive branch and the second the change branch.
    public func branches() -> [Descriptor] {
        guard branchCount > 1 else { return [self] }
        return (0..<branchCount).map { branch in
            Descriptor(script: script.mapKeys { $0.selecting(branch: branch) }, network: network)
        }
    }

    /// The scriptPubKey at `index` of `branch` (the index is ignored when the descriptor is not ranged).
    /// - Throws: ``DescriptorError/branchOutOfRange(_:count:)``, ``DescriptorError/indexOutOfRange(_:)``
    ///   or ``DescriptorError/derivation(_:)``.
    public func scriptPubKey(branch: Int = 0, index: UInt32 = 0) throws(DescriptorError) -> [UInt8] {
        guard (0..<branchCount).contains(branch) else { throw .branchOutOfRange(branch, count: branchCount) }
        if isRanged && index >= Secp256k1.hardenedOffset { throw .indexOutOfRange(index) }
        return try script.script(branch: branch, index: index)
    }

    /// The address at `index` of `branch`, or `nil` when the script has no address form (`pk()`, bare
    /// `multi()`, non-standard `raw()`).
    public func address(branch: Int = 0, index: UInt32 = 0) throws(DescriptorError) -> BitcoinAddress? {
        BitcoinAddress(scriptPubKey: try scriptPubKey(branch: branch, index: index), network: network)
    }
}
