/// An address with an optional label, read from a plain address or a `bitcoin:` URI.
///
/// This is the form the CLI and the config accept: `bc1q…`, `1BvBM…`, or
/// `bitcoin:bc1q…?label=Cold%20storage`, whose `label` becomes ``label``.
public struct LabeledAddress: Sendable, Hashable {
    /// The validated address.
    public let address: BitcoinAddress
    /// The label, or `nil` when there is none or it is empty.
    public let label: String?

    /// Creates a labeled address; an empty label is stored as `nil`.
    public init(address: BitcoinAddress, label: String? = nil) {
        self.address = address
        self.label = label?.isEmpty == true ? nil : label
    }

    /// Reads a plain address or a `bitcoin:` URI.
    ///
    /// Leading and trailing whitespace is ignored. Text starting with `bitcoin:` (any case) is parsed as a
    /// BIP21 / BIP321 URI, and its path address is validated; its `label` is kept, other parameters are
    /// ignored. A URI with an empty path (payment instructions only) is rejected, since there is no single
    /// on-chain address to watch. Anything else must be an address.
    /// - Parameter text: the address or URI.
    /// - Throws: an ``AddressInputError`` wrapping the ``AddressError`` or ``URIError``.
    public init(parsing text: String) throws(AddressInputError) {
        let trimmed = Self.trimmed(text)
        guard trimmed.lowercased().hasPrefix("bitcoin:") else {
            do {
                self.init(address: try BitcoinAddress(trimmed))
            } catch {
                throw .address(error)
            }
            return
        }
        let uri: BitcoinURI
        do {
            uri = try BitcoinURI.parse(trimmed)
        } catch {
            throw .uri(error)
        }
        let address: BitcoinAddress?
        do {
            address = try uri.validatedAddress()
        } catch {
            throw .address(error)
        }
        guard let address else { throw .noOnChainAddress(trimmed) }
        self.init(address: address, label: uri.label)
    }

    /// The text without leading and trailing whitespace.
    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
