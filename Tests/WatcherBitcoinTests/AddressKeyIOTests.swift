import Testing
import WatcherBitcoin
import WatcherCore

/// Bitcoin Core's `key_io_valid.json` (address rows) and `key_io_invalid.json`.
@Suite("Bitcoin Core key_io vectors")
struct AddressKeyIOTests {
    static let valid = Result {
        try AddressFixtures.load("key_io_valid_addresses_bitcoin_core", as: AddressFixtures.KeyIOValid.self).valid
    }
    static let invalid = Result {
        try AddressFixtures.load("key_io_invalid_bitcoin_core", as: AddressFixtures.KeyIOInvalid.self).invalid
    }

    @Test("valid addresses decode with the right network, type and scriptPubKey", arguments: try valid.get())
    func validAddress(entry: AddressFixtures.KeyIOValid.Entry) throws {
        let address = try BitcoinAddress(entry.address)
        #expect(AddressFixtures.hex(address.scriptPubKey) == entry.scriptPubKey)
        #expect(address.string == (entry.type.hasPrefix("segwit") ? entry.address.lowercased() : entry.address))
        #expect(address.description == address.string)
        try checkType(address, entry: entry)
        try checkNetwork(address, entry: entry)
        try checkReEncoding(address, entry: entry)
        if address.witnessVersion != nil {
            // Core's tryCaseFlip: the upper-case form is the same address.
            let upper = try BitcoinAddress(entry.address.uppercased())
            #expect(upper == address)
            #expect(upper.scriptPubKey == address.scriptPubKey)
        }
    }

    @Test("invalid strings are rejected", arguments: try invalid.get())
    func invalidString(text: String) {
        #expect(throws: AddressError.self) { try BitcoinAddress(text) }
        #expect(throws: AddressInputError.self) { try LabeledAddress(parsing: text) }
    }

    @Test("all 53 valid and 70 invalid rows are present")
    func counts() throws {
        #expect(try Self.valid.get().count == 53)
        #expect(try Self.invalid.get().count == 70)
    }

    private func checkType(_ address: BitcoinAddress, entry: AddressFixtures.KeyIOValid.Entry) throws {
        switch entry.type {
        case "p2pkh": #expect(address.kind == .p2pkh)
        case "p2sh": #expect(address.kind == .p2sh)
        default:
            let version = try #require(UInt8(entry.type.dropFirst("segwit_v".count)))
            #expect(entry.type.hasPrefix("segwit_v"))
            #expect(address.witnessVersion == version)
            #expect(address.kind == AddressSegwitTests.expectedKind(version: version, length: address.program.count))
        }
    }

    private func checkNetwork(_ address: BitcoinAddress, entry: AddressFixtures.KeyIOValid.Entry) throws {
        let isBase58 = address.witnessVersion == nil
        switch entry.chain {
        case "main":
            #expect(address.network == .mainnet)
        case "testnet4", "signet":
            #expect(address.network == .testnet)
        case "regtest":
            // Base58 regtest addresses share testnet's version bytes and are reported as testnet.
            #expect(address.network == (isBase58 ? .testnet : .regtest))
            #expect(address.isValid(on: .regtest))
        default:
            Issue.record("unknown chain \(entry.chain)")
        }
        let expected: BitcoinAddress.Network =
            entry.chain == "main" ? .mainnet : entry.chain == "regtest" ? .regtest : .testnet
        #expect(try BitcoinAddress(entry.address, network: expected) == address)
        #expect(!address.isValid(on: expected == .mainnet ? .testnet : .mainnet))
    }

    /// The existing encoders reproduce the address from its decoded parts.
    private func checkReEncoding(_ address: BitcoinAddress, entry: AddressFixtures.KeyIOValid.Entry) throws {
        switch address.kind {
        case .p2pkh, .p2sh:
            let version: UInt8 =
                switch (address.network, address.kind) {
                case (.mainnet, .p2pkh): 0x00
                case (.mainnet, _): 0x05
                case (_, .p2pkh): 0x6f
                default: 0xc4
                }
            #expect(Base58.encodeCheck(version: version, payload: address.program) == entry.address)
        default:
            let version = try #require(address.witnessVersion)
            let encoded = Bech32.segwitAddress(hrp: address.network.hrp, version: version, program: address.program)
            #expect(encoded == entry.address.lowercased())
        }
    }
}
