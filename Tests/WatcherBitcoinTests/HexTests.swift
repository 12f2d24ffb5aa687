import Testing
import WatcherBitcoin

/// ``Hex``, ``Hash256`` and ``sha256d(_:)``.
@Suite struct HexTests {
    @Test("encode is lower case; decode takes either case and rejects odd lengths and bad characters")
    func hex() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0 ") == nil)
    }

    @Test("isHash accepts exactly 64 hex characters")
    func isHash() {
        #expect(Hex.isHash(String(repeating: "aB", count: 32)))
        #expect(!Hex.isHash(String(repeating: "a", count: 63)))
        #expect(!Hex.isHash(String(repeating: "a", count: 65)))
        #expect(!Hex.isHash(String(repeating: "g", count: 64)))
    }

    @Test("sha256d of known inputs, in internal byte order")
    func doubleSHA() {
        #expect(Hex.encode(sha256d([UInt8]())) == "5df6e0e2761359d30a8275058e299fcc0381534545f55cf43e41983f5d4c9456")
        #expect(Hex.encode(sha256d("abc".utf8)) == "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358")
    }

    @Test("Hash256 displays byte-reversed and reads its display form back")
    func hash256() throws {
        let hash = Hash256(hashing: [UInt8]())
        #expect(hash.displayHex == "56944c5d3f98413ef45cf54545538103cc9f298e0575820ad3591376e2e0f65d")
        #expect(Hash256(displayHex: hash.displayHex) == hash)
        #expect(Hash256(displayHex: hash.displayHex.uppercased()) == hash)
        #expect(hash.description == hash.displayHex)
        #expect(Hash256(displayHex: "00") == nil)
        #expect(Hash256(bytes: [UInt8](repeating: 1, count: 31)) == nil)
        #expect(Hash256.zero.isZero && !hash.isZero)
        #expect(OutPoint(txid: hash.displayHex, vout: 1) == OutPoint(txid: hash, vout: 1))
        #expect(OutPoint(txid: "xyz", vout: 1) == nil)
        #expect(OutPoint.null.isNull)
    }
}
