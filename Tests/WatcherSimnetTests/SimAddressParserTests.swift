import Testing
import WatcherBitcoin
import WatcherSimnet

/// The simnet's address parser against published vectors (BIP173/BIP350 and real fixture addresses).
@Suite("Address parser")
struct SimAddressParserTests {
    @Test(arguments: [
        (
            "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", SimAddress.Kind.p2wpkh,
            "751e76e8199196d454941c45d1b3a323f1433bd6"
        ),
        ("1PYexakYRvWnzYa21kPWqbXgwPvLjnttMp", .p2pkh, "f74f591a65c8c5ff5f3804815c8cc56943df5d4f"),
        ("3CXosf9wCHdSkGieziJ4BVg8g9HpwbX45t", .p2sh, "76eb94d31cee6f54e6616ef2f31991dfa14d8300"),
        (
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", .p2tr,
            "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
        ),
    ])
    func decodesValidMainnetAddresses(text: String, kind: SimAddress.Kind, programHex: String) throws {
        let address = try SimAddressParser.decode(text)
        #expect(address.kind == kind)
        #expect(
            address.program.map {
                String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
            }.joined() == programHex
        )
        #expect(address.string == (kind == .p2pkh || kind == .p2sh ? text : text.lowercased()))
    }

    @Test(arguments: [
        "",
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",  // bad checksum
        "bc1qw508d6qejxtdg4y5R3zarvary0c5xw7kv8f3t4",  // mixed case
        "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx",  // v1 with Bech32 (BIP350)
        "1PYexakYRvWnzYa21kPWqbXgwPvLjnttMq",  // bad base58 checksum
        "175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W",  // BIP21 example, fails its checksum on purpose
        "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",  // testnet
        "mv9uLThosiEnGRbVPS7Vhyw6VssbVRsiAw",  // testnet base58
        "not an address",
        "bc1",
    ])
    func rejectsInvalidOrForeignAddresses(text: String) {
        #expect(throws: SimAddressParser.Failure.self) { try SimAddressParser.decode(text) }
    }
}
