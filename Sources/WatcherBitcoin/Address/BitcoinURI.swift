/// A parsed `bitcoin:` URI (BIP21, as updated by BIP321).
///
/// ``parse(_:)`` checks the URI's structure and parameters only; the address is kept as the raw string
/// from the URI (BIP21's own example address fails its checksum on purpose). Call
/// ``validatedAddress()`` to validate it.
///
/// Rules: the scheme and the query keys are case-insensitive; values are percent-decoded once as UTF-8
/// (`+` stays `+`); `amount` is decimal BTC, held exactly in satoshis; `label`, `message`, `amount` and
/// `pop` / `req-pop` must not repeat; `pop` and `req-pop` must not both appear; a `req-` parameter other
/// than `req-pop` makes the URI invalid; the address may be empty only when a payment instruction is
/// present; segwit addresses under `bc`, `tb` or `bcrt` must carry that prefix.
public struct BitcoinURI: Sendable, Hashable {
    /// The address as written in the URI (not validated, not case-folded); empty when the URI only
    /// carries payment instructions.
    public let address: String
    /// The requested amount in satoshis (`amount=20.3` is 2,030,000,000).
    public let amountSats: Int64?
    /// The percent-decoded `label`.
    public let label: String?
    /// The percent-decoded `message`.
    public let message: String?
    /// The `pop` or `req-pop` proof-of-payment callback.
    public let proofOfPayment: ProofOfPayment?
    /// Every other parameter, keyed by its lower-cased key, with its percent-decoded values in URI order.
    /// Payment instructions (`lightning`, `bc`, …) are here, and so are parameters this parser ignores.
    public let parameters: [String: [String]]

    /// The keys BIP321 defines for payment instructions, plus `bcrt` for regtest segwit addresses.
    public static let paymentInstructionKeys: Set<String> = ["lightning", "lno", "sp", "pay", "bc", "tb", "bcrt"]

    /// The payment-instruction parameters (a subset of ``parameters``).
    public var paymentInstructions: [String: [String]] {
        parameters.filter { Self.paymentInstructionKeys.contains($0.key) }
    }

    /// Validates ``address``.
    /// - Returns: the address, or `nil` when the URI has none.
    /// - Throws: an ``AddressError`` when the address is not valid.
    public func validatedAddress() throws(AddressError) -> BitcoinAddress? {
        address.isEmpty ? nil : try BitcoinAddress(address)
    }

    /// Parses a `bitcoin:` URI.
    /// - Parameter text: the URI, e.g. `bitcoin:bc1q…?amount=0.01&label=Savings`.
    /// - Throws: a ``URIError`` naming the first problem found.
    public static func parse(_ text: String) throws(URIError) -> BitcoinURI {
        let scalars = text.unicodeScalars
        let scheme = "bitcoin:"
        guard scalars.count >= scheme.count,
            String(String.UnicodeScalarView(scalars.prefix(scheme.count))).lowercased() == scheme
        else { throw .notBitcoinURI }
        let rest = scalars.dropFirst(scheme.count)
        let address: Substring.UnicodeScalarView
        let query: Substring.UnicodeScalarView?
        if let mark = rest.firstIndex(of: "?") {
            address = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        } else {
            address = rest
            query = nil
        }
        var builder = Builder()
        for part in query?.split(separator: "&", omittingEmptySubsequences: true) ?? [] {
            try builder.add(part)
        }
        if address.isEmpty
            && !builder.parameters.keys.contains(where: { paymentInstructionKeys.contains($0) })
        {
            throw .missingAddress
        }
        return BitcoinURI(
            address: String(Substring(address)),
            amountSats: builder.amountSats,
            label: builder.label,
            message: builder.message,
            proofOfPayment: builder.proofOfPayment,
            parameters: builder.parameters
        )
    }

    /// Collects parameters while enforcing the repeat and `req-` rules.
    private struct Builder {
        var amountSats: Int64?
        var label: String?
        var message: String?
        var proofOfPayment: ProofOfPayment?
        var parameters: [String: [String]] = [:]
        var seen: Set<String> = []

        mutating func add(_ scalars: Substring.UnicodeScalarView) throws(URIError) {
            let part = Substring(scalars)
            let rawKey: Substring
            let rawValue: Substring
            if let equals = scalars.firstIndex(of: "=") {
                rawKey = Substring(scalars[..<equals])
                rawValue = Substring(scalars[scalars.index(after: equals)...])
            } else {
                rawKey = part
                rawValue = ""
            }
            guard let decodedKey = PercentDecoding.decode(rawKey) else { throw .invalidPercentEncoding(String(part)) }
            guard let value = PercentDecoding.decode(rawValue) else { throw .invalidPercentEncoding(String(part)) }
            let key = decodedKey.lowercased()
            if key.isEmpty { throw .malformedParameter(String(part)) }
            switch key {
            case "amount", "label", "message", "pop", "req-pop":
                guard seen.insert(key).inserted else { throw .duplicateParameter(key) }
            default:
                break
            }
            switch key {
            case "amount": amountSats = try BitcoinURI.satoshis(fromBTC: value)
            case "label": label = value
            case "message": message = value
            case "pop", "req-pop":
                if proofOfPayment != nil { throw .popAndReqPop }
                proofOfPayment = ProofOfPayment(uri: value, isRequired: key == "req-pop")
            default:
                if key.hasPrefix("req-") { throw .unknownRequiredParameter(key) }
                if ["bc", "tb", "bcrt"].contains(key) { try Self.checkNetwork(key: key, value: value) }
                parameters[key, default: []].append(value)
            }
        }

        /// Checks that a segwit address under `bc`, `tb` or `bcrt` has that human-readable part.
        static func checkNetwork(key: String, value: String) throws(URIError) {
            let lower = value.lowercased()
            guard let separator = lower.lastIndex(of: "1"), lower[..<separator] == key else {
                throw .wrongNetworkInstruction(key: key, value: value)
            }
        }
    }
}
