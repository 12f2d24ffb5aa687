/// A validated Bitcoin address: Base58Check P2PKH / P2SH or a native segwit Bech32 / Bech32m address.
///
/// Create one with ``init(_:)``, which validates fully offline (checksum, version byte or human-readable
/// part, witness version, program length, padding) and throws an ``AddressError`` naming the problem.
/// Two addresses are equal when their canonical strings are: an all-upper-case Bech32 address equals its
/// lower-case form. It encodes to and decodes from its canonical string.
public struct BitcoinAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The canonical text: Bech32 lower-cased, Base58 exactly as given.
    public let string: String
    /// The network the encoding names; Base58 test addresses report ``Network/testnet`` (see ``Network``).
    public let network: Network
    /// The output type.
    public let kind: Kind
    /// The 20-byte hash of a Base58 address, or the 2-to-40-byte witness program of a segwit address.
    public let program: [UInt8]

    /// Parses and validates an address.
    ///
    /// Accepts Base58Check with version bytes 0x00 / 0x05 (mainnet) and 0x6f / 0xc4 (test networks), and
    /// Bech32 (witness v0) or Bech32m (v1 to v16) with the prefixes `bc`, `tb` and `bcrt`, per BIP173 and
    /// BIP350. Bech32 may be all lower or all upper case, never mixed. Witness v2 to v16, and v1 programs
    /// of another length than 32 bytes, are accepted as ``Kind/witnessUnknown(version:)`` as BIP350
    /// recommends. The text is taken exactly: surrounding whitespace is an invalid character.
    /// - Parameter text: the address.
    /// - Throws: an ``AddressError`` with the reason the text is not a valid address.
    public init(_ text: String) throws(AddressError) {
        let scalars = Array(text.unicodeScalars)
        if scalars.isEmpty { throw .empty }
        if scalars.count > Bech32.maxLength {
            throw .tooLong(text, length: scalars.count, limit: Bech32.maxLength)
        }
        if Self.looksLikeBech32(scalars) {
            self = try Self.decodeSegwit(text)
        } else {
            self = try Self.decodeBase58(text)
        }
    }

    /// Parses an address and checks that it can be used on `network`.
    /// - Parameters:
    ///   - text: the address.
    ///   - network: the network the address must belong to (see ``isValid(on:)``).
    /// - Throws: an ``AddressError``, ``AddressError/wrongNetwork(_:expected:actual:)`` when the address
    ///   is valid but for another network.
    public init(_ text: String, network: Network) throws(AddressError) {
        try self.init(text)
        guard isValid(on: network) else {
            throw .wrongNetwork(text, expected: network, actual: self.network)
        }
    }

    /// Creates an address from already-validated parts.
    package init(string: String, network: Network, kind: Kind, program: [UInt8]) {
        self.string = string
        self.network = network
        self.kind = kind
        self.program = program
    }

    /// Whether the address can receive coins on `network`.
    ///
    /// Segwit addresses match only their own network. Base58 test addresses (reported as
    /// ``Network/testnet``) are valid on ``Network/regtest`` too, since both use the same version bytes.
    public func isValid(on network: Network) -> Bool {
        if network == self.network { return true }
        return kind.witnessVersion == nil && self.network == .testnet && network == .regtest
    }

    /// The output script this address pays to.
    ///
    /// P2PKH `76 a9 14 <hash> 88 ac`, P2SH `a9 14 <hash> 87`, segwit `OP_n <push program>` where `OP_n` is
    /// 0x00 for v0 and 0x50 + n for v1 to v16.
    public var scriptPubKey: [UInt8] {
        switch kind {
        case .p2pkh: [0x76, 0xa9, 0x14] + program + [0x88, 0xac]
        case .p2sh: [0xa9, 0x14] + program + [0x87]
        case .p2wpkh, .p2wsh, .p2tr, .witnessUnknown:
            [witnessOpcode, UInt8(program.count)] + program
        }
    }

    /// The opcode pushing the witness version: OP_0 or OP_1...OP_16.
    private var witnessOpcode: UInt8 {
        let version = kind.witnessVersion ?? 0
        return version == 0 ? 0 : 0x50 + version
    }

    /// The witness version for segwit addresses, `nil` for Base58 ones.
    public var witnessVersion: UInt8? { kind.witnessVersion }

    /// The canonical string.
    public var description: String { string }

    /// Decodes the address from a single string and validates it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the canonical string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
