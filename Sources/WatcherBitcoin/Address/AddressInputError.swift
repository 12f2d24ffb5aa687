/// Why text given as "an address or a `bitcoin:` URI" could not be read (see ``LabeledAddress``).
public enum AddressInputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The text, or the address inside the URI, is not a valid address.
    case address(AddressError)
    /// The text starts with `bitcoin:` but is not a valid URI.
    case uri(URIError)
    /// The URI is valid but has an empty address (only payment instructions such as `lightning=`).
    /// Carries the URI.
    case noOnChainAddress(String)

    /// The underlying error's description, or a sentence saying the URI has no address.
    public var description: String {
        switch self {
        case .address(let error): error.description
        case .uri(let error): error.description
        case .noOnChainAddress(let uri):
            "bitcoin: URI \(uri.debugDescription) carries no on-chain address in its path"
        }
    }
}
