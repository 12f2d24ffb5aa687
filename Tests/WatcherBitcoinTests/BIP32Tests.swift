import Testing
import WatcherBitcoin

@Suite("BIP32 extended keys")
struct BIP32Tests {
    struct Vectors: Decodable {
        struct Vector: Decodable {
            let name: String
            let chains: [Chain]
        }
        struct Chain: Decodable {
            let chain: String
            let path: [UInt32]
            let extPub: String
            let extPrv: String
            let decodedPub: DecodedKey
            let ckdpubFromPreviousExtPub: Bool?
        }
        let vectors: [Vector]
    }

    @Test("bip32_test_vectors.json: vectors 1-4 parse, re-serialize, CKDpub or refuse each step")
    func vectors() throws {
        let fixture = try Fixture.load(Vectors.self, "bip32_test_vectors")
        #expect(fixture.vectors.count == 4)
        var derived = 0
        var refused = 0
        for vector in fixture.vectors {
            var previous: ExtendedPublicKey?
            for chain in vector.chains {
                let label = "\(vector.name) \(chain.chain)"
                let key = try ExtendedPublicKey(chain.extPub, network: .mainnet)
                chain.decodedPub.check(key, label)
                #expect(key.string == chain.extPub, "\(label)")
                #expect(key.serialized.count == 78)
                #expect(key.isMaster == chain.path.isEmpty, "\(label)")
                let privateError = thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(chain.extPrv) }
                #expect(privateError == .privateKey(kind: "xprv"), "\(label)")
                #expect(privateError?.description.hasPrefix("watch-only: give the extended public key") == true)
                #expect(privateError?.description.contains(chain.extPrv.prefix(12)) == false)
                if let parent = previous, let index = chain.path.last {
                    if chain.ckdpubFromPreviousExtPub == true {
                        #expect(try parent.child(index) == key, "\(label)")
                        derived += 1
                    } else {
                        let error = thrownError(ExtendedKeyError.self) { _ = try parent.child(index) }
                        #expect(error == .hardenedDerivation(index), "\(label)")
                        refused += 1
                    }
                }
                previous = key
            }
        }
        #expect(derived == 6)
        #expect(refused == 7)
    }

    struct Invalid: Decodable {
        struct Key: Decodable {
            let key: String
            let reasonInBip: String
        }
        let invalid: [Key]
    }

    /// The error each of the BIP's reasons must produce.
    static func expected(_ reason: String) -> (ExtendedKeyError) -> Bool {
        switch reason {
        case "pubkey version / prvkey mismatch": { $0 == .privateKeyInPublicVersion }
        case "prvkey version / pubkey mismatch": { $0 == .publicKeyInPrivateVersion }
        case "invalid pubkey prefix 04": { $0 == .invalidPublicKeyPrefix(0x04) }
        case "invalid pubkey prefix 01": { $0 == .invalidPublicKeyPrefix(0x01) }
        case "invalid prvkey prefix 04": { $0 == .invalidPrivateKeyPrefix(0x04) }
        case "invalid prvkey prefix 01": { $0 == .invalidPrivateKeyPrefix(0x01) }
        case "zero depth with non-zero parent fingerprint":
            {
                if case .zeroDepthWithParentFingerprint = $0 { true } else { false }
            }
        case "zero depth with non-zero index":
            {
                if case .zeroDepthWithChildNumber = $0 { true } else { false }
            }
        case "unknown extended key version": { $0 == .unknownVersion(0x0101_0101) }
        case "private key 0 not in 1..n-1", "private key n not in 1..n-1": { $0 == .privateKeyOutOfRange }
        case "invalid checksum": { $0 == .badChecksum }
        default: { reason.hasPrefix("invalid pubkey 02") && $0 == .invalidPublicKey }
        }
    }

    @Test("bip32_invalid_extended_keys.json: all 16 keys rejected, each for its own reason")
    func invalidKeys() throws {
        let fixture = try Fixture.load(Invalid.self, "bip32_invalid_extended_keys")
        #expect(fixture.invalid.count == 16)
        for vector in fixture.invalid {
            let error = try #require(
                thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(vector.key) },
                "\(vector.reasonInBip)"
            )
            #expect(Self.expected(vector.reasonInBip)(error), "\(vector.reasonInBip): got \(error)")
            #expect(!error.description.contains(vector.key.prefix(12)), "the message repeats the key")
            // In a descriptor the same keys are refused too, never as a private key.
            let descriptorError = thrownError(DescriptorError.self) {
                _ = try Descriptor("pkh(\(vector.key)/*)", network: .mainnet)
            }
            #expect(descriptorError != nil, "\(vector.reasonInBip)")
            if case .privateKey = descriptorError {
                Issue.record("\(vector.reasonInBip): refused as a valid private key")
            }
        }
    }

    @Test("Keys built from fields: chain code and key checks, version change, derivation path text")
    func fieldsAndPaths() throws {
        let master = try ExtendedPublicKey(
            "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
        )
        let rebuilt = try ExtendedPublicKey(
            version: .xpub,
            depth: 0,
            parentFingerprint: 0,
            childNumber: 0,
            chainCode: master.chainCode,
            publicKey: master.publicKey
        )
        #expect(rebuilt == master)
        #expect(master.with(version: .zpub).string.hasPrefix("zpub"))
        #expect(try ExtendedPublicKey(master.with(version: .zpub).string).with(version: .xpub) == master)
        #expect(
            thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(master.string, network: .testnet) }
                == .wrongNetwork(key: .xpub, expected: .testnet)
        )
        let path = try #require(DerivationPath("m/84'/0'/0'/0/7"))
        #expect(path.components == [0x8000_0054, 0x8000_0000, 0x8000_0000, 0, 7])
        #expect(path.description == "m/84'/0'/0'/0/7")
        #expect(path.formatted(hardenedMarker: "h") == "m/84h/0h/0h/0/7")
        #expect(DerivationPath("0/7")?.isAbsolute == false)
        #expect(DerivationPath("0/7H") == nil)
        #expect(DerivationPath("m/2147483648") == nil)
        #expect(
            thrownError(ExtendedKeyError.self) { _ = try master.child(Secp256k1.hardenedOffset) }
                == .hardenedDerivation(Secp256k1.hardenedOffset)
        )
    }

    @Test("A Base58 text longer than any key is refused before decoding (fuzzing: 64 KB took 12 s to decode)")
    func tooLongIsRefusedFirst() throws {
        let master =
            "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
        // 112 characters can still decode to 82 bytes (a key and its checksum): refused by the checksum instead.
        #expect(thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(master + "z") } == .badChecksum)
        // Refused by length, before the decoding whose cost grows with the square of the length.
        let long = String(repeating: "z", count: 65_000)
        #expect(thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(long) } == .tooLong(65_000))
        #expect(thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(master + "zz") } == .tooLong(113))
        #expect(
            thrownError(DescriptorError.self) { _ = try Descriptor("wpkh(\(long))", network: .mainnet) }
                == .unrecognizedKey
        )
        #expect(
            thrownError(WalletError.self) { _ = try WalletDescriptor(parsing: long, network: .mainnet) }
                == .extendedKey(.tooLong(65_000))
        )
        #expect(ExtendedKeyError.tooLong(113).description == "invalid extended key: 113 characters, not 111")
    }
}
