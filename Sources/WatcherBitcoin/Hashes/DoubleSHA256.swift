import Crypto

/// SHA-256 applied twice, `SHA256(SHA256(bytes))`: Bitcoin's hash for txids, block hashes and merkle nodes.
///
/// The 32 bytes come back in the order the hash function writes them (the "internal" order);
/// ``Hash256/displayHex`` reverses them for the form RPC and explorers show.
public func sha256d(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var first = SHA256()
    if bytes.withContiguousStorageIfAvailable({ first.update(bufferPointer: UnsafeRawBufferPointer($0)) }) == nil {
        Array(bytes).withUnsafeBytes { first.update(bufferPointer: $0) }
    }
    var second = SHA256()
    first.finalize().withUnsafeBytes { second.update(bufferPointer: $0) }
    return second.finalize().withUnsafeBytes { Array($0) }
}
