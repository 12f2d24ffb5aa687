import WatcherBitcoin
import WatcherCore

/// Parses mainnet address text into a ``SimAddress``, checking checksums.
///
/// Validation is WatcherCore's ``BitcoinAddress``: one address codec for the watcher and the simnet. The
/// simnet only narrows its errors to the three its APIs tell apart.
public enum SimAddressParser: Sendable {
    /// Why a string is not a usable mainnet address.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text is empty.
        case empty
        /// The text is neither base58 nor bech32, or has a bad checksum.
        case unknownFormat
        /// The text is an address of another network (testnet, regtest).
        case wrongNetwork

        public var description: String {
            switch self {
            case .empty: "empty address"
            case .unknownFormat: "decoded address is of unknown format"
            case .wrongNetwork: "address is not for mainnet"
            }
        }
    }

    /// Decodes `text` as a mainnet address.
    /// - Throws: ``Failure`` when the text is not a valid mainnet address.
    public static func decode(_ text: String) throws(Failure) -> SimAddress {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= 90 else { throw .unknownFormat }
        let lower = text.lowercased()
        if !lower.hasPrefix("bc1") && (lower.hasPrefix("tb1") || lower.hasPrefix("bcrt1")) { throw .wrongNetwork }
        guard let address = try? BitcoinAddress(text) else { throw .unknownFormat }
        guard address.network == .mainnet else { throw .wrongNetwork }
        return SimAddress(address)
    }
}
