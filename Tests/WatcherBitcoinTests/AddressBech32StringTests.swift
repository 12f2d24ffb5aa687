import Testing
import WatcherBitcoin
import WatcherCore

/// Raw Bech32 (BIP173) and Bech32m (BIP350) string vectors, decoded with ``Bech32/decode(_:)``.
@Suite("Bech32 and Bech32m strings")
struct AddressBech32StringTests {
    static let bech32 = Result {
        try AddressFixtures.load("bech32_bip173_strings", as: AddressFixtures.StringVectors.self)
    }
    static let bech32m = Result {
        try AddressFixtures.load("bech32m_bip350_strings", as: AddressFixtures.StringVectors.self)
    }

    @Test("valid Bech32 strings decode as Bech32 (never Bech32m) and re-encode", arguments: try bech32.get().valid)
    func validBech32(string: String) throws {
        try checkValid(string, variant: .bech32)
    }

    @Test("valid Bech32m strings decode as Bech32m (never Bech32) and re-encode", arguments: try bech32m.get().valid)
    func validBech32m(string: String) throws {
        try checkValid(string, variant: .bech32m)
    }

    @Test("invalid Bech32 strings are rejected for the BIP's reason", arguments: try bech32.get().invalid)
    func invalidBech32(vector: AddressFixtures.StringVectors.Invalid) {
        checkInvalid(vector)
    }

    @Test("invalid Bech32m strings are rejected for the BIP's reason", arguments: try bech32m.get().invalid)
    func invalidBech32m(vector: AddressFixtures.StringVectors.Invalid) {
        checkInvalid(vector)
    }

    @Test("every vector file has the expected number of entries")
    func counts() throws {
        #expect(try Self.bech32.get().valid.count == 7)
        #expect(try Self.bech32.get().invalid.count == 12)
        #expect(try Self.bech32m.get().valid.count == 7)
        #expect(try Self.bech32m.get().invalid.count == 14)
    }

    private func checkValid(_ string: String, variant: Bech32.Variant) throws {
        let decoded = try Bech32.decode(string)
        #expect(decoded.variant == variant)
        #expect(Bech32.encode(hrp: decoded.hrp, data: decoded.data, variant: variant) == string.lowercased())
        let flipped = string == string.lowercased() ? string.uppercased() : string.lowercased()
        #expect(try Bech32.decode(flipped) == decoded)
    }

    private func checkInvalid(_ vector: AddressFixtures.StringVectors.Invalid) {
        let error = #expect(throws: AddressError.self) { try Bech32.decode(vector.string) }
        guard let error else { return }
        let matched = AddressReasonMatching.matches(error, reason: vector.reason)
        #expect(matched == true, "got \(error) for reason \"\(vector.reason)\"")
    }
}
