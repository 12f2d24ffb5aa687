import Testing
import WatcherBitcoin
import WatcherCore

/// Bitcoin Core's raw Base58 vectors (no checksum), through ``Base58/encode(_:)`` and ``Base58/decode(_:)``.
@Suite("Base58 encode/decode")
struct AddressBase58Tests {
    static let vectors = Result {
        try AddressFixtures.load("base58_encode_decode_bitcoin_core", as: AddressFixtures.Base58Vectors.self).vectors
    }

    @Test("encode matches Bitcoin Core", arguments: try vectors.get())
    func encode(vector: AddressFixtures.Base58Vectors.Vector) throws {
        #expect(Base58.encode(try AddressFixtures.bytes(hex: vector.hex)) == vector.base58)
    }

    @Test("decode matches Bitcoin Core", arguments: try vectors.get())
    func decode(vector: AddressFixtures.Base58Vectors.Vector) throws {
        #expect(Base58.decode(vector.base58) == (try AddressFixtures.bytes(hex: vector.hex)))
    }

    @Test("all 21 vectors are present")
    func count() throws {
        #expect(try Self.vectors.get().count == 21)
    }

    @Test("characters outside the alphabet do not decode", arguments: ["0", "O", "I", "l", " 1", "1 ", "é", "3+"])
    func outsideAlphabet(text: String) {
        #expect(Base58.decode(text) == nil)
    }
}
