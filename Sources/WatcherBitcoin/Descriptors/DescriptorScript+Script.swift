import Crypto

extension DescriptorScript {
    /// The script this expression produces at `index` of `branch`: the scriptPubKey at the top level, the
    /// redeem or witness script inside `sh()` / `wsh()`.
    /// - Throws: ``DescriptorError/indexOutOfRange(_:)`` or ``DescriptorError/derivation(_:)``.
    public func script(branch: Int, index: UInt32) throws(DescriptorError) -> [UInt8] {
        switch self {
        case .pk(let key):
            let publicKey = try key.publicKey(branch: branch, index: index)
            return [UInt8(publicKey.count)] + publicKey + [0xac]
        case .pkh(let key):
            let hash = Hash160.hash(try key.publicKey(branch: branch, index: index))
            return [0x76, 0xa9, 0x14] + hash + [0x88, 0xac]
        case .wpkh(let key):
            return [0x00, 0x14] + Hash160.hash(try key.publicKey(branch: branch, index: index))
        case .sh(let inner):
            return [0xa9, 0x14] + Hash160.hash(try inner.script(branch: branch, index: index)) + [0x87]
        case .wsh(let inner):
            return [0x00, 0x20] + Array(SHA256.hash(data: try inner.script(branch: branch, index: index)))
        case .multi(let threshold, let keys, let sorted):
            var publicKeys: [[UInt8]] = []
            for key in keys { publicKeys.append(try key.publicKey(branch: branch, index: index)) }
            if sorted { publicKeys.sort { $0.lexicographicallyPrecedes($1) } }
            var script = Self.smallNumber(threshold)
            for publicKey in publicKeys { script += [UInt8(publicKey.count)] + publicKey }
            return script + Self.smallNumber(keys.count) + [0xae]
        case .tr(let key):
            let internalKey = try key.publicKey(branch: branch, index: index)
            do {
                return [0x51, 0x20] + (try Secp256k1.tapOutputKey(internal: internalKey))
            } catch {
                throw .publicKey(error)
            }
        case .addr(let address):
            return address.scriptPubKey
        case .raw(let bytes):
            return bytes
        }
    }

    /// Pushes a number 1...20: `OP_1`…`OP_16`, or a one-byte push above 16.
    private static func smallNumber(_ value: Int) -> [UInt8] {
        value <= 16 ? [0x50 + UInt8(value)] : [0x01, UInt8(value)]
    }
}
