import Testing
import WatcherBitcoin

@Suite("Error messages: typed, named, and free of key material")
struct ErrorMessageTests {
    static let xprv =
        "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
    static let wif = "L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1"
    static let xpub =
        "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
    static let tpub =
        "tpubD6NzVbkrYhZ4XgiXtGrdW5XDAPFCL9h7we1vwNCpn8tGbBcgfVYjXyhWo4E1xkh56hjod1RhGjxbaTLV3X4FyWuejifB9jusQ46QzG87VKp"

    /// Whether a message repeats any 6-character run of a private key.
    static func leaks(_ message: String, _ secret: String) -> Bool {
        let characters = Array(secret)
        return (0...(characters.count - 6)).contains { message.contains(String(characters[$0..<($0 + 6)])) }
    }

    @Test("Private keys in every position are refused without repeating them")
    func privateKeys() throws {
        let inputs = [
            Self.xprv, Self.wif, "wpkh(\(Self.xprv)/0/*)", "wpkh([deadbeef/84h/0h/0h]\(Self.wif))",
            "wsh(sortedmulti(1,\(Self.xpub)/0/*,\(Self.xprv)/0/*))", "tr(\(Self.wif))", "pkh(\(Self.xprv)/1h/*)",
            "wpkh(\(Self.xpub)/\(Self.wif)/*)", "wpkh([\(Self.wif)]\(Self.xpub)/*)", "multi(\(Self.wif),\(Self.xpub))",
            "addr(\(Self.wif))", "\(Self.wif)(\(Self.xpub))", "wpkh(\(Self.xprv.dropLast())1/*)",
        ]
        for input in inputs {
            let error = try #require(
                thrownError(WalletError.self) { _ = try WalletDescriptor(parsing: input, network: .mainnet) },
                "\(input.prefix(20))"
            )
            #expect(!Self.leaks(error.description, Self.xprv) && !Self.leaks(error.description, Self.wif), "\(error)")
        }
        let refused = thrownError(WalletError.self) { _ = try WalletDescriptor(parsing: Self.wif, network: .mainnet) }
        #expect(refused?.description.hasPrefix("watch-only: give the extended public key") == true)
        let extended = thrownError(WalletError.self) {
            _ = try WalletDescriptor(parsing: "wpkh(\(Self.xprv)/<0;1>/*)", network: .mainnet)
        }
        #expect(extended == .descriptor(.privateKey(kind: "xprv")))
    }

    @Test("Each wallet-level refusal names its reason")
    func walletRefusals() throws {
        let cases: [(String, BitcoinAddress.Network, WalletError)] = [
            (Self.tpub, .mainnet, .extendedKey(.wrongNetwork(key: .tpub, expected: .mainnet))),
            (
                "wpkh(\(Self.tpub)/<0;1>/*)", .mainnet,
                .descriptor(.extendedKey(.wrongNetwork(key: .tpub, expected: .mainnet)))
            ),
            (Self.xpub, .testnet, .extendedKey(.wrongNetwork(key: .xpub, expected: .testnet))),
            ("wpkh(\(Self.xpub)/1h/*)", .mainnet, .descriptor(.hardenedStep("1h"))),
            ("wpkh(\(Self.xpub)/0/*h)", .mainnet, .descriptor(.hardenedStep("*h"))),
            ("wpkh(\(Self.xpub)/<0;1h>/*)", .mainnet, .descriptor(.hardenedStep("1h"))),
            ("tr(\(Self.xpub)/<0;1>/*,pk(\(Self.xpub)))", .mainnet, .descriptor(.scriptTreeNotSupported)),
            ("pk(\(Self.xpub)/<0;1>/*)", .mainnet, .unsupportedScript("pk(KEY)")),
            ("sh(multi(1,\(Self.xpub)/<0;1>/*))", .mainnet, .unsupportedScript("sh(multi(k,KEY,…))")),
            ("wpkh(\(Self.xpub)/0)", .mainnet, .notRanged),
            ("addr(bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu)", .mainnet, .unsupportedScript("addr(ADDRESS)")),
        ]
        for (text, network, expected) in cases {
            let error = thrownError(WalletError.self) { _ = try WalletDescriptor(parsing: text, network: network) }
            #expect(error == expected, "\(text.prefix(30))")
        }
        let hardened = WalletError.descriptor(.hardenedStep("1h")).description
        #expect(hardened.contains("CKDpub cannot derive it"))
        #expect(WalletError.branchCount(3).description.contains("exactly two"))
        #expect(ExtendedKeyError.wrongNetwork(key: .tpub, expected: .mainnet).description.contains("tpub"))
        #expect(
            DescriptorError.checksumMismatch(expected: "89f8spxm", found: "qqqqqqqq").description.contains("#89f8spxm")
        )
    }

    @Test("Derivation limits: index 2^31, branches, uncompressed and x-only keys")
    func limits() throws {
        let wallet = try WalletDescriptor(parsing: Self.xpub, network: .mainnet)
        let tooFar = thrownError(WalletError.self) { _ = try wallet.address(.receive, index: Secp256k1.hardenedOffset) }
        #expect(tooFar == .descriptor(.indexOutOfRange(Secp256k1.hardenedOffset)))
        #expect(try wallet.address(.receive, index: Secp256k1.hardenedOffset - 1).path.description == "0/2147483647")
        let descriptor = try Descriptor("wpkh(\(Self.xpub)/<0;1>/*)", network: .mainnet)
        #expect(thrownError(DescriptorError.self) { _ = try descriptor.branch(2) } == .branchOutOfRange(2, count: 2))
        #expect(
            thrownError(Secp256k1Error.self) {
                _ = try Secp256k1.compressedPublicKey([0x05] + [UInt8](repeating: 1, count: 32))
            }
                == .invalidEncoding(length: 33, prefix: 0x05)
        )
        #expect(!Secp256k1.isValidXOnlyPublicKey([UInt8](repeating: 0xff, count: 32)))
        #expect(!Secp256k1.isValidPrivateKey([UInt8](repeating: 0, count: 32)))
    }
}
