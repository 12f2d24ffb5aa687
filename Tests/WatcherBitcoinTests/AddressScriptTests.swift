import Testing

@testable import WatcherBitcoin

/// `BitcoinAddress.scriptPubKey(fromAddress:)`, the block scan's fast decoder, agrees with the full parser on
/// every valid address and refuses what it refuses.
struct AddressScriptTests {
    @Test func agreesWithTheFullParserOnSeededAddresses() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let program = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let texts = [
                Bech32.segwitAddress(hrp: "bc", version: 0, program: Array(program.prefix(20))),
                Bech32.segwitAddress(hrp: "bc", version: 0, program: program),
                Bech32.segwitAddress(hrp: "bc", version: 1, program: program),
                Bech32.segwitAddress(hrp: "tb", version: 1, program: program).uppercased(),
                Bech32.segwitAddress(hrp: "bcrt", version: 2, program: Array(program.prefix(7))),
                Base58.encodeCheck(version: 0x00, payload: Array(program.prefix(20))),
                Base58.encodeCheck(version: 0x05, payload: Array(program.prefix(20))),
                Base58.encodeCheck(version: 0x6f, payload: Array(program.prefix(20))),
            ]
            for text in texts {
                #expect(
                    BitcoinAddress.scriptPubKey(fromAddress: text) == (try BitcoinAddress(text).scriptPubKey),
                    "\(text)"
                )
            }
        }
        // P2PKH of a hash starting with zero bytes: more leading `1`s.
        let zeros = Base58.encodeCheck(version: 0x00, payload: [0, 0] + Array(repeating: 7, count: 18))
        #expect(zeros.hasPrefix("111"))
        #expect(BitcoinAddress.scriptPubKey(fromAddress: zeros) == (try BitcoinAddress(zeros).scriptPubKey))
    }

    @Test func refusesWhatTheParserRefuses() {
        let bad = [
            "1BoatSLRHtKNngkdXEeobR76b53LETtpyU",  // bad checksum
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",  // bad checksum
            "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",  // bech32 checksum on v1
            "BC1QW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",  // mixed case
            "bc1zw508d6qejxtdg4y5r3zarqfsj7dl",  // v16 … with the wrong checksum variant
            "tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty",  // unknown prefix
            "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNL",  // too short
            "",
        ]
        for text in bad {
            #expect(BitcoinAddress.scriptPubKey(fromAddress: text) == nil, "\(text)")
            #expect(throws: (any Error).self) { try BitcoinAddress(text) }
        }
        #expect(
            BitcoinAddress.scriptPubKey(fromAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")
                == [0x00, 0x14] + Hex.decode("751e76e8199196d454941c45d1b3a323f1433bd6")!
        )
    }
}
