/// A 32-byte double SHA-256 hash: a txid, a wtxid, a block hash or a merkle root.
///
/// ``bytes`` holds the hash in internal order, as it is serialized in transactions and headers.
/// Bitcoin Core, Electrum servers and explorers print it byte-reversed: that is ``displayHex``.
public struct Hash256: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes in internal (serialized) order.
    public let bytes: [UInt8]

    /// The all-zero hash: the previous block of the genesis block and the txid of a coinbase's outpoint.
    public static let zero = Hash256(checked: [UInt8](repeating: 0, count: 32))

    /// A hash from 32 bytes in internal (serialized) order; `nil` for any other length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self.bytes = Array(bytes)
    }

    /// A hash from its display form (64 hex characters, byte-reversed); `nil` if `displayHex` is not that.
    public init?(displayHex: some StringProtocol) {
        guard Hex.isHash(displayHex), let decoded = Hex.decode(displayHex) else { return nil }
        self.bytes = decoded.reversed()
    }

    /// The double SHA-256 of `data` (see ``sha256d(_:)``).
    public init(hashing data: some Sequence<UInt8>) {
        self.bytes = sha256d(data)
    }

    private init(checked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The display form: the bytes reversed, as 64 lower-case hex characters.
    public var displayHex: String { Hex.encode(bytes.reversed()) }

    /// The display form, ``displayHex``.
    public var description: String { displayHex }

    /// `true` if every byte is zero.
    public var isZero: Bool { bytes.allSatisfy { $0 == 0 } }
}
