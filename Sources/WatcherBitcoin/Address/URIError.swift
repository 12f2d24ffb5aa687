/// Why a string is not a valid `bitcoin:` URI (BIP21 / BIP321).
///
/// The URI parser does not validate the address itself; see ``BitcoinURI/validatedAddress()`` and
/// ``AddressError`` for that.
public enum URIError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The string does not start with the `bitcoin:` scheme (any case).
    case notBitcoinURI
    /// The address is empty and no payment-instruction parameter (`lightning`, `lno`, `sp`, `pay`, `bc`,
    /// `tb`, `bcrt`) stands in for it.
    case missingAddress
    /// A parameter has an empty key, e.g. `?=5`. Carries the raw parameter.
    case malformedParameter(String)
    /// A `%` is not followed by two hex digits, or the decoded bytes are not UTF-8. Carries the raw text.
    case invalidPercentEncoding(String)
    /// `label`, `message`, `amount`, `pop` or `req-pop` appears more than once. Carries the lower-cased key.
    case duplicateParameter(String)
    /// A `req-` parameter this parser does not implement. Carries the lower-cased key.
    case unknownRequiredParameter(String)
    /// Both `pop` and `req-pop` are present.
    case popAndReqPop
    /// The amount is not `digits[.digits]` in BTC: empty, negative, with commas, a sign or an exponent.
    case invalidAmount(String)
    /// The amount has more than 8 digits after the decimal point (finer than a satoshi).
    case tooManyFractionDigits(String)
    /// The amount is above 21,000,000 BTC.
    case amountTooLarge(String)
    /// A segwit address under a payment-instruction key for another network, e.g. `bc=tb1…`.
    case wrongNetworkInstruction(key: String, value: String)

    /// A short sentence naming the problem.
    public var description: String {
        "invalid bitcoin: URI: " + reason
    }

    /// The problem without the `invalid bitcoin: URI:` prefix.
    public var reason: String {
        switch self {
        case .notBitcoinURI: "it does not start with \"bitcoin:\""
        case .missingAddress: "no address and no payment instruction"
        case .malformedParameter(let raw): "malformed parameter \(raw.debugDescription)"
        case .invalidPercentEncoding(let raw): "bad percent-encoding in \(raw.debugDescription)"
        case .duplicateParameter(let key): "parameter \"\(key)\" appears more than once"
        case .unknownRequiredParameter(let key): "unsupported required parameter \"\(key)\""
        case .popAndReqPop: "both \"pop\" and \"req-pop\" are present"
        case .invalidAmount(let text): "amount \(text.debugDescription) is not a decimal number of BTC"
        case .tooManyFractionDigits(let text): "amount \(text.debugDescription) has more than 8 decimals"
        case .amountTooLarge(let text): "amount \(text.debugDescription) is above 21000000 BTC"
        case .wrongNetworkInstruction(let key, let value):
            "\(value.debugDescription) does not belong under \"\(key)\""
        }
    }
}
