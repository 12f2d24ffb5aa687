import Testing
import WatcherBitcoin

struct BIP84: Decodable {
    struct Address: Decodable {
        let path: String
        let relativePath: [UInt32]
        let pubkey: String
        let address: String
        let scriptPubKeyComputed: String
    }
    let rootpriv: String
    let rootpub: String
    let accountZpub: String
    let accountZprv: String
    let privkeysInBip: [String: String]
    let accountZpubDecoded: DecodedKey
    let addresses: [Address]
}

struct BIP49: Decodable {
    struct Receive: Decodable {
        let privateKeyWifInBip: String
        let path: String
        let relativePath: [UInt32]
        let pubkey: String
        let keyhash: String
        let redeemScript: String
        let addressBytes: String
        let scriptPubKeyComputed: String
        let address: String
    }
    let masterseedUprv: String
    let account0Upub: String
    let account0Uprv: String
    let account0UpubDecoded: DecodedKey
    let firstReceive: Receive
}

struct BIP86: Decodable {
    struct Address: Decodable {
        let path: String
        let relativePath: [UInt32]
        let xpub: String
        let xprvInBip: String
        let internalKey: String
        let tweakComputed: String
        let outputKey: String
        let scriptPubKey: String
        let address: String
    }
    let rootpriv: String
    let rootpub: String
    let accountXprv: String
    let accountXpub: String
    let accountXpubDecoded: DecodedKey
    let addresses: [Address]
}

/// Checks that every private key string of a fixture is refused with the watch-only error of its kind.
func expectRefused(_ keys: [(String, String)]) {
    for (key, kind) in keys {
        let error = thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(key) }
        #expect(error == .privateKey(kind: kind), "\(kind)")
        #expect(error?.description.hasPrefix(ExtendedKeyError.watchOnlyMessage) == true)
    }
}

@Suite("Account keys to addresses: BIP84, BIP49, BIP86, BIP341")
struct AccountVectorTests {
    @Test("bip84_vectors.json: zpub → receive 0/0, 0/1, change 1/0 (P2WPKH)")
    func bip84() throws {
        let fixture = try Fixture.load(BIP84.self, "bip84_vectors")
        let key = try ExtendedPublicKey(fixture.accountZpub, network: .mainnet)
        fixture.accountZpubDecoded.check(key, "account zpub")
        #expect(key.string == fixture.accountZpub)
        let wifs = fixture.privkeysInBip.values.map { ($0, "WIF") }
        expectRefused([(fixture.accountZprv, "zprv"), (fixture.rootpriv, "zprv")] + wifs)
        #expect(try ExtendedPublicKey(fixture.rootpub).isMaster)
        let wallet = try WalletDescriptor(parsing: fixture.accountZpub, network: .mainnet)
        #expect(wallet.scriptType == .p2wpkh)
        #expect(fixture.addresses.count == 3)
        for vector in fixture.addresses {
            let child = try key.derive(vector.relativePath)
            #expect(Hex.encode(child.publicKey) == vector.pubkey, "\(vector.path)")
            let branch = try #require(WalletDescriptor.Branch(rawValue: Int(vector.relativePath[0])))
            let derived = try wallet.address(branch, index: vector.relativePath[1])
            #expect(derived.address.string == vector.address, "\(vector.path)")
            #expect(Hex.encode(derived.scriptPubKey) == vector.scriptPubKeyComputed, "\(vector.path)")
            #expect(derived.path.description == vector.relativePath.map(String.init).joined(separator: "/"))
        }
    }

    @Test("bip49_vectors.json: testnet upub → 0/0 (P2SH-P2WPKH), keyhash, redeem script, 2M… address")
    func bip49() throws {
        let fixture = try Fixture.load(BIP49.self, "bip49_vectors")
        let vector = fixture.firstReceive
        let key = try ExtendedPublicKey(fixture.account0Upub, network: .testnet)
        fixture.account0UpubDecoded.check(key, "account upub")
        expectRefused([
            (fixture.account0Uprv, "uprv"), (fixture.masterseedUprv, "uprv"), (vector.privateKeyWifInBip, "WIF"),
        ])
        #expect(Hex.encode(try key.derive(vector.relativePath).publicKey) == vector.pubkey)
        let wallet = try WalletDescriptor(parsing: fixture.account0Upub, network: .testnet)
        #expect(wallet.scriptType == .p2shP2wpkh)
        let derived = try wallet.address(.receive, index: vector.relativePath[1])
        #expect(Hex.encode(derived.scriptPubKey) == vector.scriptPubKeyComputed)
        #expect(derived.address.string == vector.address)
        let inner = try Descriptor("wpkh(\(vector.pubkey))", network: .testnet)
        #expect(Hex.encode(try inner.scriptPubKey()) == vector.redeemScript)
        // A test-network key is refused on mainnet.
        #expect(
            thrownError(WalletError.self) { _ = try WalletDescriptor(parsing: fixture.account0Upub, network: .mainnet) }
                == .extendedKey(.wrongNetwork(key: .upub, expected: .mainnet))
        )
        // …and accepted on regtest, where its P2SH address keeps the test version byte.
        let regtest = try WalletDescriptor(parsing: fixture.account0Upub, network: .regtest)
        #expect(try regtest.address(.receive, index: 0).address.string == vector.address)
    }

    @Test("bip86_vectors.json: xpub → per-address xpub, internal key, output key, bc1p address (tr)")
    func bip86() throws {
        let fixture = try Fixture.load(BIP86.self, "bip86_vectors")
        let key = try ExtendedPublicKey(fixture.accountXpub, network: .mainnet)
        fixture.accountXpubDecoded.check(key, "account xpub")
        let xprvs = [fixture.rootpriv, fixture.accountXprv] + fixture.addresses.map(\.xprvInBip)
        expectRefused(xprvs.map { ($0, "xprv") })
        #expect(try ExtendedPublicKey(fixture.rootpub).isMaster)
        let wallet = try WalletDescriptor(parsing: "tr(\(fixture.accountXpub)/<0;1>/*)", network: .mainnet)
        #expect(wallet.scriptType == .p2tr)
        #expect(fixture.addresses.count == 3)
        for vector in fixture.addresses {
            let child = try key.derive(vector.relativePath)
            #expect(child.string == vector.xpub, "\(vector.path)")
            #expect(Hex.encode(child.publicKey.dropFirst()) == vector.internalKey, "\(vector.path)")
            let output = try Secp256k1.tapOutputKey(internal: bytes(vector.internalKey))
            #expect(Hex.encode(output) == vector.outputKey, "\(vector.path)")
            #expect(try Secp256k1.tapOutputKey(internal: child.publicKey) == output, "compressed internal key")
            let branch = try #require(WalletDescriptor.Branch(rawValue: Int(vector.relativePath[0])))
            let derived = try wallet.address(branch, index: vector.relativePath[1])
            #expect(Hex.encode(derived.scriptPubKey) == vector.scriptPubKey, "\(vector.path)")
            #expect(derived.address.string == vector.address, "\(vector.path)")
        }
    }

    struct BIP341: Decodable {
        struct Entry: Decodable {
            struct Given: Decodable {
                let internalPubkey: String
            }
            struct Intermediary: Decodable {
                let tweak: String
                let tweakedPubkey: String
            }
            struct Expected: Decodable {
                let scriptPubKey: String
                let bip350Address: String
            }
            let given: Given
            let intermediary: Intermediary
            let expected: Expected
        }
        let scriptPubKey: [Entry]
    }

    @Test("bip341_wallet_scriptpubkey_vectors.json: entry 0 as tr(KEY); entries 1-6 refused as script trees")
    func bip341() throws {
        let fixture = try Fixture.load(BIP341.self, "bip341_wallet_scriptpubkey_vectors")
        let entry = try #require(fixture.scriptPubKey.first)
        let internalKey = bytes(entry.given.internalPubkey)
        #expect(Hex.encode(TaggedHash.tapTweak(internalKey: internalKey)) == entry.intermediary.tweak)
        #expect(Hex.encode(try Secp256k1.tapOutputKey(internal: internalKey)) == entry.intermediary.tweakedPubkey)
        let descriptor = try Descriptor("tr(\(entry.given.internalPubkey))", network: .mainnet)
        #expect(Hex.encode(try descriptor.scriptPubKey()) == entry.expected.scriptPubKey)
        #expect(try descriptor.address()?.string == entry.expected.bip350Address)
        // Entries with a script tree need tr(KEY,TREE), which is refused with a clear message.
        #expect(fixture.scriptPubKey.count == 7)
        for tree in fixture.scriptPubKey.dropFirst() {
            let text = "tr(\(tree.given.internalPubkey),pk(\(entry.given.internalPubkey)))"
            let error = thrownError(DescriptorError.self) { _ = try Descriptor(text, network: .mainnet) }
            #expect(error == .scriptTreeNotSupported)
            #expect(error?.description == "tr() with a script tree is not supported")
        }
    }
}
