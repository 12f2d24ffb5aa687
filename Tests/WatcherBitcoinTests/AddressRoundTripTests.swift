import Testing
import WatcherBitcoin

/// SplitMix64: a small seeded generator, so a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

@Suite("Property: derived addresses round-trip through BitcoinAddress")
struct AddressRoundTripTests {
    /// A random depth-3 account key: a random non-hardened child of a BIP32 test key (so a valid point),
    /// with a random chain code and account number.
    static func randomAccountKey(_ generator: inout SeededGenerator, version: ExtendedKeyVersion) throws
        -> ExtendedPublicKey
    {
        let base = try ExtendedPublicKey(
            "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
        )
        let point = try base.child(UInt32.random(in: 0..<Secp256k1.hardenedOffset, using: &generator))
        return try ExtendedPublicKey(
            version: version,
            depth: 3,
            parentFingerprint: UInt32.random(in: 0...UInt32.max, using: &generator),
            childNumber: Secp256k1.hardenedOffset + UInt32.random(in: 0..<10, using: &generator),
            chainCode: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) },
            publicKey: point.publicKey
        )
    }

    @Test("Random seeded account keys of every script type and network", arguments: [UInt64(1), 2, 3, 4])
    func roundTrip(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let networks: [BitcoinAddress.Network] = [.mainnet, .testnet, .regtest]
        var seenTypes = Set<ScriptType>()
        for _ in 0..<12 {
            let network = networks.randomElement(using: &generator) ?? .mainnet
            let version: ExtendedKeyVersion = network == .mainnet ? .xpub : .tpub
            let keys = try (0..<3).map { _ in try Self.randomAccountKey(&generator, version: version).string }
            let origin = "[\(hex32(UInt32.random(in: 0...UInt32.max, using: &generator)))/48h/1h/0h/2h]"
            let multi = "sortedmulti(2,\(keys.map { origin + $0 + "/<0;1>/*" }.joined(separator: ",")))"
            let texts = [
                "pkh(\(keys[0])/<0;1>/*)", "sh(wpkh(\(keys[0])/<0;1>/*))", "wpkh(\(keys[0])/<0;1>/*)",
                "tr(\(keys[0])/<0;1>/*)", "wsh(\(multi))", "sh(wsh(\(multi)))",
            ]
            for text in texts {
                let wallet = try WalletDescriptor(parsing: text, network: network)
                seenTypes.insert(wallet.scriptType)
                #expect(try WalletDescriptor(parsing: wallet.description, network: network) == wallet)
                for branch in WalletDescriptor.Branch.allCases {
                    let index = UInt32.random(in: 0..<100_000, using: &generator)
                    let derived = try wallet.address(branch, index: index)
                    let parsed = try BitcoinAddress(derived.address.string, network: network)
                    #expect(parsed == derived.address, "\(text) \(branch) \(index)")
                    #expect(parsed.scriptPubKey == derived.scriptPubKey, "\(text) \(branch) \(index)")
                    #expect(BitcoinAddress(scriptPubKey: parsed.scriptPubKey, network: network) == parsed)
                    #expect(derived.path.components.last == index)
                }
            }
        }
        #expect(seenTypes == Set(ScriptType.allCases))
    }
}
