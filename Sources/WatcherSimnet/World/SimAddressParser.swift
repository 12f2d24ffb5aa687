import WatcherBitcoin
import WatcherCore

/// Parses address text of the simnet's network into a ``SimAddress``, checking checksums.
///
/// Validation is WatcherCore's ``BitcoinAddress``: one address codec for the watcher and the simnet. The
/// simnet only narrows its errors to the three its APIs tell apart.
public enum SimAddressParser: Sendable {
    /// Why a string is not a usable address on the simnet's network.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text is empty.
        case empty
        /// The text is neither base58 nor bech32, or has a bad checksum.
        case unknownFormat
        /// The text is an address of another network than the simnet's.
        case wrongNetwork(SimnetNetwork)

        public var description: String {
            switch self {
            case .empty: "empty address"
            case .unknownFormat: "decoded address is of unknown format"
            case .wrongNetwork(let network): "address is not for \(network)"
            }
        }
    }

    /// Decodes `text` as an address of `network` (mainnet by default). Regtest takes `bcrt1` segwit addresses and
    /// the test networks' Base58 ones (`m`/`n`, `2`), as Core does.
    /// - Throws: ``Failure`` when the text is not a valid address of `network`.
    public static func decode(_ text: String, network: SimnetNetwork = .mainnet) throws(Failure) -> SimAddress {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= 90 else { throw .unknownFormat }
        let lower = text.lowercased()
        let prefixes = ["bc1", "tb1", "bcrt1"]
        let own = network.addressNetwork.hrp + "1"
        if !lower.hasPrefix(own) && prefixes.contains(where: { lower.hasPrefix($0) }) { throw .wrongNetwork(network) }
        guard let address = try? BitcoinAddress(text) else { throw .unknownFormat }
        guard address.isValid(on: network.addressNetwork) else { throw .wrongNetwork(network) }
        return SimAddress(address, network: network)
    }
}
