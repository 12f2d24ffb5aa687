import Testing
import WatcherBitcoin
import WatcherCore

/// BIP21 / BIP321 rules beyond the BIP examples: scheme, keys, decoding, amounts, repeats, pop.
@Suite("bitcoin: URI rules")
struct BitcoinURIRulesTests {
    static let address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

    @Test(
        "amounts convert to exact satoshis",
        arguments: [
            ("0", Int64(0)), ("0.00000001", 1), ("20.3", 2_030_000_000), ("50.00", 5_000_000_000),
            (".5", 50_000_000), ("5.", 500_000_000), ("0001.10000000", 110_000_000),
            ("21000000", 2_100_000_000_000_000), ("20999999.99999999", 2_099_999_999_999_999),
            ("0.1", 10_000_000), ("1.23456789", 123_456_789),
        ]
    )
    func amounts(text: String, sats: Int64) throws {
        #expect(try BitcoinURI.satoshis(fromBTC: text) == sats)
        #expect(try BitcoinURI.parse("bitcoin:\(Self.address)?amount=\(text)").amountSats == sats)
    }

    @Test(
        "malformed amounts are rejected",
        arguments: [
            "", ".", "-1", "+1", "1e3", "50,000.00", "1,5", " 1", "1 ", "1.2.3", "0x10", "١", "NaN", "-0.5",
        ]
    )
    func malformedAmounts(text: String) {
        #expect(throws: URIError.invalidAmount(text)) { try BitcoinURI.satoshis(fromBTC: text) }
    }

    @Test("amounts finer than a satoshi or above 21M BTC are rejected")
    func amountLimits() {
        #expect(throws: URIError.tooManyFractionDigits("0.123456789")) {
            try BitcoinURI.satoshis(fromBTC: "0.123456789")
        }
        #expect(throws: URIError.tooManyFractionDigits("1.000000000")) {
            try BitcoinURI.satoshis(fromBTC: "1.000000000")
        }
        for text in ["21000000.00000001", "100000000", "99999999999999999999999"] {
            #expect(throws: URIError.amountTooLarge(text)) { try BitcoinURI.satoshis(fromBTC: text) }
        }
    }

    @Test("the scheme is case-insensitive and required")
    func scheme() throws {
        for scheme in ["bitcoin:", "BITCOIN:", "BitCoin:"] {
            #expect(try BitcoinURI.parse(scheme + Self.address).address == Self.address)
        }
        for text in ["", "bitcoin", Self.address, "litecoin:\(Self.address)", "bitcoin//\(Self.address)", "bitcoi"] {
            #expect(throws: URIError.notBitcoinURI) { try BitcoinURI.parse(text) }
        }
    }

    @Test("keys are case-insensitive, so repeats are found across cases")
    func keyCase() throws {
        let uri = try BitcoinURI.parse("bitcoin:\(Self.address)?LABEL=Cold&Message=Hi&AMOUNT=1&Lightning=lnbc1")
        #expect(uri.label == "Cold")
        #expect(uri.message == "Hi")
        #expect(uri.amountSats == 100_000_000)
        #expect(uri.parameters == ["lightning": ["lnbc1"]])
        #expect(throws: URIError.duplicateParameter("label")) {
            try BitcoinURI.parse("bitcoin:\(Self.address)?label=a&LABEL=b")
        }
        #expect(throws: URIError.duplicateParameter("message")) {
            try BitcoinURI.parse("bitcoin:\(Self.address)?message=a&message=a")
        }
        #expect(throws: URIError.unknownRequiredParameter("req-foo")) {
            try BitcoinURI.parse("bitcoin:\(Self.address)?REQ-Foo=1")
        }
    }

    @Test("values are percent-decoded once as UTF-8 and + stays +")
    func percentDecoding() throws {
        let uri = try BitcoinURI.parse("bitcoin:\(Self.address)?label=a+b%20c%2520&message=%E2%82%BF%3D%26")
        #expect(uri.label == "a+b c%20")
        #expect(uri.message == "₿=&")
        for bad in ["%", "%2", "%zz", "%FF", "%C3%28", "a%2"] {
            #expect(throws: URIError.invalidPercentEncoding("label=\(bad)")) {
                try BitcoinURI.parse("bitcoin:\(Self.address)?label=\(bad)")
            }
        }
    }

    @Test("empty parameters are skipped, empty keys rejected, values may contain =")
    func parameterShapes() throws {
        let uri = try BitcoinURI.parse("bitcoin:\(Self.address)?&label=&&x=a=b&flag&")
        #expect(uri.label == "")
        #expect(uri.parameters == ["x": ["a=b"], "flag": [""]])
        #expect(throws: URIError.malformedParameter("=5")) { try BitcoinURI.parse("bitcoin:\(Self.address)?=5") }
        #expect(throws: URIError.invalidAmount("")) { try BitcoinURI.parse("bitcoin:\(Self.address)?amount") }
    }

    @Test("an empty address needs a payment instruction")
    func emptyAddress() throws {
        for text in ["bitcoin:", "bitcoin:?", "bitcoin:?label=x", "bitcoin:?amount=1&foo=bar"] {
            #expect(throws: URIError.missingAddress) { try BitcoinURI.parse(text) }
        }
        for key in BitcoinURI.paymentInstructionKeys.sorted() {
            let value = ["bc", "tb", "bcrt"].contains(key) ? key + "1qqqqqqqq" : "x"
            let uri = try BitcoinURI.parse("bitcoin:?\(key)=\(value)")
            #expect(uri.address.isEmpty)
            #expect(uri.paymentInstructions == [key: [value]])
        }
    }

    @Test(
        "segwit instructions must match their key's network",
        arguments: [
            ("bc", "tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq"),
            ("bc", "bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9"),
            ("tb", "bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5nq"),
            ("bcrt", "tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq"),
            ("bc", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"), ("tb", ""),
        ]
    )
    func instructionNetwork(key: String, value: String) {
        #expect(throws: URIError.wrongNetworkInstruction(key: key, value: value)) {
            try BitcoinURI.parse("bitcoin:?\(key)=\(value)")
        }
    }

    @Test("pop and req-pop: one of them, once; req-pop is understood")
    func proofOfPayment() throws {
        let pop = try #require(try BitcoinURI.parse("bitcoin:\(Self.address)?pop=initiatingapp%3a").proofOfPayment)
        #expect(pop == BitcoinURI.ProofOfPayment(uri: "initiatingapp:", isRequired: false))
        #expect(pop.scheme == "initiatingapp")
        #expect(pop.isSafeToOpen)
        let required = try #require(try BitcoinURI.parse("bitcoin:?req-pop=https%3aevil.example&lno=x").proofOfPayment)
        #expect(required.isRequired)
        #expect(required.scheme == "https")
        #expect(!required.isSafeToOpen)
        #expect(!BitcoinURI.ProofOfPayment(uri: "no-scheme", isRequired: false).isSafeToOpen)
        #expect(throws: URIError.popAndReqPop) { try BitcoinURI.parse("bitcoin:\(Self.address)?req-pop=a%3a&pop=a%3a") }
        #expect(throws: URIError.duplicateParameter("pop")) {
            try BitcoinURI.parse("bitcoin:\(Self.address)?pop=a%3a&POP=b%3a")
        }
        #expect(throws: URIError.duplicateParameter("req-pop")) {
            try BitcoinURI.parse("bitcoin:\(Self.address)?req-pop=a%3a&req-pop=a%3a")
        }
    }

    @Test("errors describe the problem")
    func descriptions() {
        #expect(
            URIError.duplicateParameter("label").description
                == "invalid bitcoin: URI: parameter \"label\" appears more than once"
        )
        #expect(
            URIError.invalidAmount("50,000.00").description
                == "invalid bitcoin: URI: amount \"50,000.00\" is not a decimal number of BTC"
        )
        #expect(
            URIError.unknownRequiredParameter("req-x").description
                == "invalid bitcoin: URI: unsupported required parameter \"req-x\""
        )
        #expect(
            URIError.wrongNetworkInstruction(key: "bc", value: "tb1q").description
                == "invalid bitcoin: URI: \"tb1q\" does not belong under \"bc\""
        )
        #expect(URIError.missingAddress.description == "invalid bitcoin: URI: no address and no payment instruction")
    }
}
