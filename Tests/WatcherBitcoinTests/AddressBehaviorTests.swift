import Foundation
import Testing
import WatcherBitcoin
import WatcherCore

/// ``BitcoinAddress`` behaviour beyond the vectors: errors, equality, Codable, networks.
@Suite("BitcoinAddress behaviour")
struct AddressBehaviorTests {
    static let p2wpkh = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

    @Test("error descriptions name the input and the problem")
    func descriptions() {
        let cases: [(String, String)] = [
            ("", "invalid address \"\": the address is empty"),
            ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "bad bech32 checksum"),
            ("1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2m0", "invalid character \"0\" at offset 33"),
            ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3tb", "invalid character \"b\" at offset 41"),
            (" " + Self.p2wpkh, "invalid character U+0020 at offset 0"),
            ("bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "mixes upper and lower case"),
            ("tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty", "unknown prefix \"tc\" (expected bc, tb or bcrt)"),
            ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", "witness v0 must use bech32, not bech32m"),
            (
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
                "witness v1 must use bech32m, not bech32"
            ),
            ("BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", "witness v0 program must be 20 or 32 bytes, not 16"),
            ("bc1pw5dgrnzv", "witness program must be 2 to 40 bytes, not 1"),
            ("175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W", "bad base58check checksum"),
            ("cPTVQ1hbo4qdoysf6Jx5GthqucNmdfqt6J2pZRFeXv8Ep7Kmjqud", "decodes to 38 bytes, not 25"),
            (String(repeating: "q", count: 91), "too long (91 characters, at most 90)"),
        ]
        for (text, expected) in cases {
            let error = #expect(throws: AddressError.self) { try BitcoinAddress(text) }
            #expect(
                error?.reason == expected || error?.description == expected,
                "\(text): \(String(describing: error))"
            )
            if let error, !text.isEmpty {
                #expect(error.description == "invalid address \(text.debugDescription): \(expected)")
                #expect(error.input == text)
            }
        }
    }

    @Test("control characters are shown escaped")
    func escapedDescription() {
        let error = AddressError.invalidCharacter("\u{7f}1axkwrx", character: "\u{7f}", offset: 0)
        #expect(error.description == #"invalid address "\u{7F}1axkwrx": invalid character U+007F at offset 0"#)
    }

    @Test("unknown Base58 version bytes are rejected")
    func unknownVersion() {
        let payload = [UInt8](repeating: 7, count: 20)
        for version: UInt8 in [0x01, 0x30, 0x80, 0xff] {
            let text = Base58.encodeCheck(version: version, payload: payload)
            #expect(throws: AddressError.unknownVersion(text, version: version)) { try BitcoinAddress(text) }
        }
        for (version, kind) in [(UInt8(0x00), BitcoinAddress.Kind.p2pkh), (0x05, .p2sh), (0x6f, .p2pkh), (0xc4, .p2sh)]
        {
            let address = try? BitcoinAddress(Base58.encodeCheck(version: version, payload: payload))
            #expect(address?.kind == kind)
            #expect(address?.program == payload)
        }
    }

    @Test("upper and lower case Bech32 are the same address; Base58 case matters")
    func equality() throws {
        let lower = try BitcoinAddress(Self.p2wpkh)
        let upper = try BitcoinAddress(Self.p2wpkh.uppercased())
        #expect(lower == upper)
        #expect(Set([lower, upper]).count == 1)
        #expect(upper.string == Self.p2wpkh)
        #expect(throws: AddressError.self) { try BitcoinAddress("1fssia9rv4neewvj2gvxrx7lyxyspbn2mo") }
    }

    @Test("Codable uses the canonical string and validates on decode")
    func codable() throws {
        let addresses = [
            try BitcoinAddress(Self.p2wpkh.uppercased()), try BitcoinAddress("3BZECeAH8gSKkjrTx8PwMrNQBLG18yHpvf"),
        ]
        let data = try JSONEncoder().encode(addresses)
        #expect(String(decoding: data, as: UTF8.self) == #"["\#(Self.p2wpkh)","3BZECeAH8gSKkjrTx8PwMrNQBLG18yHpvf"]"#)
        #expect(try JSONDecoder().decode([BitcoinAddress].self, from: data) == addresses)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([BitcoinAddress].self, from: Data(#"["bc1qxyz"]"#.utf8))
        }
    }

    @Test("network checks: Base58 test addresses are valid on testnet and regtest")
    func networks() throws {
        let testP2PKH = try BitcoinAddress("mfhE6jAUwjUDNZhaX1PAsDTKfneQF2Nshc")
        #expect(testP2PKH.network == .testnet)
        #expect(testP2PKH.isValid(on: .testnet) && testP2PKH.isValid(on: .regtest) && !testP2PKH.isValid(on: .mainnet))
        let regtest = try BitcoinAddress("bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9")
        #expect(regtest.isValid(on: .regtest) && !regtest.isValid(on: .testnet))
        #expect(throws: AddressError.wrongNetwork(Self.p2wpkh, expected: .testnet, actual: .mainnet)) {
            try BitcoinAddress(Self.p2wpkh, network: .testnet)
        }
        #expect(try BitcoinAddress(Self.p2wpkh, network: .mainnet).kind == .p2wpkh)
        #expect(BitcoinAddress.Network(hrp: "bcrt") == .regtest && BitcoinAddress.Network(hrp: "BC") == nil)
        #expect(
            AddressError.wrongNetwork("x", expected: .testnet, actual: .mainnet).reason
                == "a mainnet address, expected testnet"
        )
    }

    @Test("kinds and witness versions")
    func kinds() throws {
        #expect(BitcoinAddress.Kind.witnessUnknown(version: 16).description == "witness_v16")
        #expect(BitcoinAddress.Kind.p2pkh.witnessVersion == nil)
        let v16 = try BitcoinAddress("BC1SW50QGDZ25J")
        #expect(v16.kind == .witnessUnknown(version: 16))
        #expect(v16.scriptPubKey == [0x60, 0x02, 0x75, 0x1e])
        let taproot = try BitcoinAddress("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0")
        #expect(taproot.kind == .p2tr && taproot.kind.description == "p2tr")
    }
}
