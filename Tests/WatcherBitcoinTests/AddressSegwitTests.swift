import Testing
import WatcherBitcoin
import WatcherCore

/// Segwit address vectors: BIP350 (authoritative) and the original BIP173 list.
@Suite("Segwit addresses (BIP173 / BIP350)")
struct AddressSegwitTests {
    static let bip350 = Result {
        try AddressFixtures.load("segwit_addresses_bip350", as: AddressFixtures.SegwitVectors.self)
    }
    static let bip173 = Result {
        try AddressFixtures.load("segwit_addresses_bip173_original", as: AddressFixtures.OriginalSegwitVectors.self)
    }

    @Test("BIP350 valid addresses decode to their scriptPubKey, in both cases", arguments: try bip350.get().valid)
    func validBIP350(vector: AddressFixtures.SegwitVectors.Valid) throws {
        for text in [vector.address, vector.address.lowercased(), vector.address.uppercased()] {
            let address = try BitcoinAddress(text)
            #expect(AddressFixtures.hex(address.scriptPubKey) == vector.scriptPubKey)
            #expect(address.witnessVersion == vector.witnessVersion)
            #expect(address.network.hrp == vector.hrp)
            #expect(address.string == vector.address.lowercased())
            #expect(address.kind == Self.expectedKind(version: vector.witnessVersion, length: address.program.count))
            let encoded = Bech32.segwitAddress(
                hrp: vector.hrp,
                version: vector.witnessVersion,
                program: address.program
            )
            #expect(encoded == address.string)
        }
    }

    @Test("BIP350 invalid addresses are rejected for the BIP's reason", arguments: try bip350.get().invalid)
    func invalidBIP350(vector: AddressFixtures.InvalidAddress) {
        checkInvalid(vector)
    }

    @Test(
        "original BIP173 examples: v0 still valid, v1+ with a Bech32 checksum now rejected",
        arguments: try bip173.get().validPerBIP173
    )
    func originalBIP173(vector: AddressFixtures.OriginalSegwitVectors.Entry) throws {
        if vector.validUnderBIP350 {
            let address = try BitcoinAddress(vector.address)
            #expect(AddressFixtures.hex(address.scriptPubKey) == vector.scriptPubKey)
            #expect(address.witnessVersion == vector.witnessVersion)
        } else {
            #expect(
                throws: AddressError.wrongChecksumVariant(
                    vector.address,
                    version: vector.witnessVersion,
                    expected: .bech32m
                )
            ) {
                try BitcoinAddress(vector.address)
            }
        }
    }

    @Test("original BIP173 invalid addresses are rejected for the BIP's reason", arguments: try bip173.get().invalid)
    func invalidBIP173(vector: AddressFixtures.InvalidAddress) {
        checkInvalid(vector)
    }

    @Test("the vector files have the expected number of entries")
    func counts() throws {
        #expect(try Self.bip350.get().valid.count == 8)
        #expect(try Self.bip350.get().invalid.count == 15)
        #expect(try Self.bip173.get().validPerBIP173.count == 6)
        #expect(try Self.bip173.get().invalid.count == 10)
    }

    /// The kind a segwit program of this version and length must get.
    static func expectedKind(version: UInt8, length: Int) -> BitcoinAddress.Kind {
        switch (version, length) {
        case (0, 20): .p2wpkh
        case (0, 32): .p2wsh
        case (1, 32): .p2tr
        default: .witnessUnknown(version: version)
        }
    }

    private func checkInvalid(_ vector: AddressFixtures.InvalidAddress) {
        let error = #expect(throws: AddressError.self) { try BitcoinAddress(vector.address) }
        guard let error else { return }
        let matched = AddressReasonMatching.matches(error, reason: vector.reason)
        #expect(matched == true, "got \(error) for reason \"\(vector.reason)\"")
    }
}
