extension BitcoinAddress {
    /// The output type an address pays to.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// Pay to public key hash (Base58, version 0x00 or 0x6f).
        case p2pkh
        /// Pay to script hash (Base58, version 0x05 or 0xc4).
        case p2sh
        /// Segwit v0 with a 20-byte program.
        case p2wpkh
        /// Segwit v0 with a 32-byte program.
        case p2wsh
        /// Segwit v1 with a 32-byte program (Taproot).
        case p2tr
        /// A segwit program with no defined meaning yet: v1 of another length than 32 bytes, or v2 to v16.
        case witnessUnknown(version: UInt8)

        /// The witness version for segwit kinds, `nil` for Base58 ones.
        public var witnessVersion: UInt8? {
            switch self {
            case .p2pkh, .p2sh: nil
            case .p2wpkh, .p2wsh: 0
            case .p2tr: 1
            case .witnessUnknown(let version): version
            }
        }

        /// `p2pkh`, `p2sh`, `p2wpkh`, `p2wsh`, `p2tr` or `witness_vN`.
        public var description: String {
            switch self {
            case .p2pkh: "p2pkh"
            case .p2sh: "p2sh"
            case .p2wpkh: "p2wpkh"
            case .p2wsh: "p2wsh"
            case .p2tr: "p2tr"
            case .witnessUnknown(let version): "witness_v\(version)"
            }
        }
    }
}
