extension BitcoinURI {
    /// Satoshis in one bitcoin.
    public static let satoshisPerBitcoin: Int64 = 100_000_000

    /// The most bitcoin there can ever be, in satoshis.
    public static let maxSatoshis: Int64 = 21_000_000 * satoshisPerBitcoin

    /// Converts a BIP21 amount in decimal BTC to satoshis, exactly (no floating point).
    ///
    /// Grammar: `digits [ "." digits ]` with at least one digit in all; `50`, `50.00`, `20.3`, `.5` and `5.`
    /// are accepted. Commas, signs, exponents and spaces are rejected, as are more than 8 decimals and
    /// amounts above 21,000,000 BTC.
    /// - Parameter text: the amount as written (already percent-decoded).
    /// - Returns: the amount in satoshis.
    /// - Throws: ``URIError/invalidAmount(_:)``, ``URIError/tooManyFractionDigits(_:)`` or
    ///   ``URIError/amountTooLarge(_:)``.
    public static func satoshis(fromBTC text: String) throws(URIError) -> Int64 {
        let bytes = Array(text.utf8)
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(dot ?? bytes.endIndex)]
        let fraction = dot.map { bytes[($0 + 1)...] } ?? []
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit), whole.count + fraction.count > 0 else {
            throw .invalidAmount(text)
        }
        guard fraction.count <= 8 else { throw .tooManyFractionDigits(text) }
        let significant = whole.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 8 else { throw .amountTooLarge(text) }
        var bitcoins: Int64 = 0
        for byte in significant { bitcoins = bitcoins * 10 + Int64(byte - UInt8(ascii: "0")) }
        var fractional: Int64 = 0
        for byte in fraction { fractional = fractional * 10 + Int64(byte - UInt8(ascii: "0")) }
        for _ in fraction.count..<8 { fractional *= 10 }
        let total = bitcoins * satoshisPerBitcoin + fractional
        guard total <= maxSatoshis else { throw .amountTooLarge(text) }
        return total
    }
}
