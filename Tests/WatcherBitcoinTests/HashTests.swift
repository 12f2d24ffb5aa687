import Testing
import WatcherBitcoin

@Suite("RIPEMD-160 and HASH160")
struct HashTests {
    struct Vectors: Decodable {
        struct Vector: Decodable {
            struct Repeat: Decodable {
                let char: String
                let count: Int
            }
            let inputAscii: String?
            let inputAsciiRepeat: Repeat?
            let length: Int
            let ripemd160: String
        }
        let vectors: [Vector]
    }

    @Test("ripemd160_test_vectors.json: all nine official vectors")
    func ripemd160Vectors() throws {
        let fixture = try Fixture.load(Vectors.self, "ripemd160_test_vectors")
        #expect(fixture.vectors.count == 9)
        for vector in fixture.vectors {
            let input: [UInt8]
            if let text = vector.inputAscii {
                input = Array(text.utf8)
            } else {
                let spec = try #require(vector.inputAsciiRepeat)
                input = [UInt8](repeating: Array(spec.char.utf8)[0], count: spec.count)
            }
            #expect(input.count == vector.length)
            #expect(Hex.encode(RIPEMD160.hash(input)) == vector.ripemd160, "length \(vector.length)")
        }
    }

    @Test("HASH160 of the BIP84/BIP49 keys and the BIP49 redeem script")
    func hash160() throws {
        let bip49 = try Fixture.load(BIP49.self, "bip49_vectors").firstReceive
        #expect(Hex.encode(Hash160.hash(bytes(bip49.pubkey))) == bip49.keyhash)
        #expect(Hex.encode(Hash160.hash(bytes(bip49.redeemScript))) == bip49.addressBytes)
        let bip84 = try Fixture.load(BIP84.self, "bip84_vectors")
        for address in bip84.addresses {
            let script = Hex.encode([0x00, 0x14] + Hash160.hash(bytes(address.pubkey)))
            #expect(script == address.scriptPubKeyComputed, "\(address.path)")
        }
    }

    @Test("BIP340 tagged hash: TapTweak of the BIP86 internal keys")
    func tapTweak() throws {
        let bip86 = try Fixture.load(BIP86.self, "bip86_vectors")
        for address in bip86.addresses {
            let tweak = TaggedHash.tapTweak(internalKey: bytes(address.internalKey))
            #expect(Hex.encode(tweak) == address.tweakComputed, "\(address.path)")
            #expect(TaggedHash.sha256(tag: "TapTweak", bytes(address.internalKey)) == tweak)
        }
    }
}
