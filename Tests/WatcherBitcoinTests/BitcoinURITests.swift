import Testing
import WatcherBitcoin
import WatcherCore

/// The BIP21 and BIP321 example URIs, each with its expected parse.
@Suite("bitcoin: URI examples (BIP21 / BIP321)")
struct BitcoinURITests {
    static let bip21 = Result { try AddressFixtures.load("bip21_uri_examples", as: AddressFixtures.BIP21Vectors.self) }
    static let bip321 = Result {
        try AddressFixtures.load("bip321_uri_examples", as: AddressFixtures.BIP321Vectors.self)
    }

    /// BIP21's example address, invalid on purpose (its Base58Check checksum fails).
    static let exampleAddress = "175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W"

    @Test("BIP21 examples parse as the BIP describes", arguments: try bip21.get().valid)
    func bip21Valid(vector: AddressFixtures.BIP21Vectors.Valid) throws {
        let uri = try BitcoinURI.parse(vector.uri)
        let expected = vector.expected
        #expect(uri.address == expected.address)
        #expect(uri.amountSats == expected.amountSats)
        if let amount = expected.amount {
            #expect(try BitcoinURI.satoshis(fromBTC: amount) == expected.amountSats)
        }
        #expect(uri.label == expected.label)
        #expect(uri.message == expected.message)
        #expect(uri.proofOfPayment == nil)
        let ignored = ["somethingyoudontunderstand": ["50"], "somethingelseyoudontget": ["999"]]
        #expect(uri.parameters == (vector.uri.contains("somethingyoudontunderstand") ? ignored : [:]))
        // URI parsing is separate from address validation: the example address fails its checksum.
        #expect(throws: AddressError.badBase58Checksum(Self.exampleAddress)) { try uri.validatedAddress() }
    }

    @Test("BIP21 invalid example: unknown req- parameters", arguments: try bip21.get().invalid)
    func bip21Invalid(vector: AddressFixtures.InvalidURI) {
        #expect(throws: URIError.unknownRequiredParameter("req-somethingyoudontunderstand")) {
            try BitcoinURI.parse(vector.uri)
        }
    }

    @Test("BIP21 amount rules", arguments: try bip21.get().amountRules.valid)
    func bip21AmountValid(rule: String) throws {
        let uri = try BitcoinURI.parse("bitcoin:\(Self.exampleAddress)?\(rule)")
        #expect(uri.amountSats == 5_000_000_000)
    }

    @Test("BIP21 amount rules: commas are invalid", arguments: try bip21.get().amountRules.invalid)
    func bip21AmountInvalid(rule: String) throws {
        let value = String(try #require(rule.split(separator: "=", maxSplits: 1).last))
        #expect(throws: URIError.invalidAmount(value)) {
            try BitcoinURI.parse("bitcoin:\(Self.exampleAddress)?\(rule)")
        }
    }

    @Test("BIP321 valid examples parse as expected", arguments: try bip321.get().valid)
    func bip321Valid(text: String) throws {
        let expected = try #require(Self.bip321Expected[text], "no expectation for \(text)")
        let uri = try BitcoinURI.parse(text)
        #expect(uri.address == expected.address)
        #expect(uri.amountSats == expected.amountSats)
        #expect(uri.label == expected.label)
        #expect(uri.message == expected.message)
        #expect(uri.parameters == expected.parameters)
        #expect(uri.proofOfPayment == nil)
        if uri.address == Self.exampleAddress {
            #expect(throws: AddressError.badBase58Checksum(Self.exampleAddress)) { try uri.validatedAddress() }
        } else if uri.address.isEmpty {
            #expect(try uri.validatedAddress() == nil)
            #expect(!uri.paymentInstructions.isEmpty)
        } else {
            try checkSegwit(uri.address, hrp: "bc")
        }
        // The segwit addresses carried under bc= / tb= are addresses of that network.
        for (key, values) in uri.parameters where key == "bc" || key == "tb" {
            for value in values {
                try checkSegwit(value, hrp: key)
            }
        }
    }

    /// Segwit addresses in `bip321_uri_examples.json` whose last character differs from
    /// `bip-0321.mediawiki` as published (bitcoin/bips): the fixture's forms fail the Bech32 checksum, the
    /// published forms are valid. Keyed by the fixture's form, lower-cased.
    static let fixtureTypos: [String: String] = [
        "bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5nq": "bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5n2",
        "bc1p5swkugezn97763tl0yty6556856uug0q6jflljvep9m4p7339x5qzyrh4q":
            "bc1p5swkugezn97763tl0yty6556856uug0q6jflljvep9m4p7339x5qzyrh4g",
        "tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq": "tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmg",
    ]

    /// Validates a segwit address from a BIP321 example, allowing for the fixture's known typos.
    private func checkSegwit(_ text: String, hrp: String) throws {
        guard let published = Self.fixtureTypos[text.lowercased()] else {
            #expect(try BitcoinAddress(text).network.hrp == hrp)
            return
        }
        #expect(throws: AddressError.badBech32Checksum(text)) { try BitcoinAddress(text) }
        #expect(published.dropLast() == text.lowercased().dropLast())
        let address = try BitcoinAddress(text == text.uppercased() ? published.uppercased() : published)
        #expect(address.network.hrp == hrp)
        #expect(address.kind == (published.hasPrefix(hrp + "1p") ? .p2tr : .p2wpkh))
    }

    @Test("BIP321 invalid examples are rejected for the BIP's reason", arguments: try bip321.get().invalid)
    func bip321Invalid(vector: AddressFixtures.InvalidURI) throws {
        let expected: URIError =
            switch vector.reason {
            case "unknown req- parameter": .unknownRequiredParameter("req-somethingyoudontunderstand")
            case "label appears twice": .duplicateParameter("label")
            case "amount appears twice", "amount appears twice even if equal": .duplicateParameter("amount")
            case "pop and req-pop together": .popAndReqPop
            case "testnet address under the bc key":
                .wrongNetworkInstruction(key: "bc", value: "tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq")
            default: .notBitcoinURI
            }
        #expect(expected != .notBitcoinURI, "unknown reason \(vector.reason)")
        #expect(throws: expected) { try BitcoinURI.parse(vector.uri) }
    }

    @Test("every example has an expectation and the files have the expected sizes")
    func counts() throws {
        #expect(try Self.bip21.get().valid.count == 5)
        #expect(try Self.bip21.get().invalid.count == 1)
        #expect(try Self.bip321.get().valid.count == 15)
        #expect(try Self.bip321.get().invalid.count == 6)
        #expect(Set(try Self.bip321.get().valid) == Set(Self.bip321Expected.keys))
    }

    /// What a BIP321 example URI parses to.
    struct Expected: Sendable {
        var address = BitcoinURITests.exampleAddress
        var amountSats: Int64?
        var label: String?
        var message: String?
        var parameters: [String: [String]] = [:]
    }

    static let bip321Expected: [String: Expected] = {
        let base = "bitcoin:" + exampleAddress
        let p2wpkh = "bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5nq"
        let p2tr = "bc1p5swkugezn97763tl0yty6556856uug0q6jflljvep9m4p7339x5qzyrh4q"
        let testnet = "tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq"
        return [
            base: Expected(),
            base + "?label=Luke-Jr": Expected(label: "Luke-Jr"),
            base + "?amount=20.3&label=Luke-Jr": Expected(amountSats: 2_030_000_000, label: "Luke-Jr"),
            base + "?amount=50&label=Luke-Jr&message=Donation%20for%20project%20xyz": Expected(
                amountSats: 5_000_000_000,
                label: "Luke-Jr",
                message: "Donation for project xyz"
            ),
            base + "?lightning=lnbc420bogusinvoice": Expected(parameters: ["lightning": ["lnbc420bogusinvoice"]]),
            "bitcoin:?lightning=lnbc420bogusinvoice": Expected(
                address: "",
                parameters: ["lightning": ["lnbc420bogusinvoice"]]
            ),
            "bitcoin:?lno=lno1bogusoffer": Expected(address: "", parameters: ["lno": ["lno1bogusoffer"]]),
            "bitcoin:?lno=lno1bogusoffer&sp=sp1qsilentpayment": Expected(
                address: "",
                parameters: ["lno": ["lno1bogusoffer"], "sp": ["sp1qsilentpayment"]]
            ),
            "bitcoin:?sp=sp1qsilentpayment": Expected(address: "", parameters: ["sp": ["sp1qsilentpayment"]]),
            base + "?sp=sp1qsilentpayment": Expected(parameters: ["sp": ["sp1qsilentpayment"]]),
            base + "?somethingyoudontunderstand=50&somethingelseyoudontget=999": Expected(
                parameters: ["somethingyoudontunderstand": ["50"], "somethingelseyoudontget": ["999"]]
            ),
            "bitcoin:?bc=\(p2wpkh)&bc=\(p2tr)": Expected(address: "", parameters: ["bc": [p2wpkh, p2tr]]),
            "BITCOIN:\(p2wpkh.uppercased())?BC=\(p2tr.uppercased())": Expected(
                address: p2wpkh.uppercased(),
                parameters: ["bc": [p2tr.uppercased()]]
            ),
            "BITCOIN:?BC=\(p2wpkh.uppercased())&BC=\(p2tr.uppercased())": Expected(
                address: "",
                parameters: ["bc": [p2wpkh.uppercased(), p2tr.uppercased()]]
            ),
            "bitcoin:?tb=\(testnet)": Expected(address: "", parameters: ["tb": [testnet]]),
        ]
    }()
}
