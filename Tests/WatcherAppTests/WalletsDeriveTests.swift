import Foundation
import Testing
import WatcherBitcoin
import WatcherTestSupport
import WatcherTesting

/// `watcher wallets derive` as a real process, on the official vectors of `Fixtures/` (see its `SOURCES.md`).
@Suite struct WalletsDeriveTests {
    // MARK: - Fixtures

    struct BIP84: Decodable {
        struct Address: Decodable {
            let path: String
            let address: String
            let scriptPubKey: String

            enum CodingKeys: String, CodingKey {
                case path, address
                case scriptPubKey = "scriptPubKey_computed"
            }
        }
        let rootpub: String
        let accountZprv: String
        let accountZpub: String
        let addresses: [Address]
        let privkeysInBip: [String: String]

        enum CodingKeys: String, CodingKey {
            case rootpub, addresses
            case accountZprv = "account_zprv"
            case accountZpub = "account_zpub"
            case privkeysInBip = "privkeys_in_bip"
        }
    }

    struct BIP49: Decodable {
        struct Receive: Decodable {
            let path: String
            let keyhash: String
            let address: String
            let wif: String

            enum CodingKeys: String, CodingKey {
                case path, keyhash, address
                case wif = "private_key_wif_in_bip"
            }
        }
        let upub: String
        let uprv: String
        let firstReceive: Receive

        enum CodingKeys: String, CodingKey {
            case upub = "account0_upub"
            case uprv = "account0_uprv"
            case firstReceive = "first_receive"
        }
    }

    struct BIP32: Decodable {
        struct Vector: Decodable {
            struct Chain: Decodable {
                struct Private: Decodable {
                    let chainCode: String
                    let privateKey: String

                    enum CodingKeys: String, CodingKey {
                        case chainCode = "chain_code"
                        case privateKey = "private_key"
                    }
                }
                let chain: String
                let extPub: String
                let extPrv: String
                let decodedPrv: Private

                enum CodingKeys: String, CodingKey {
                    case chain
                    case extPub = "ext_pub"
                    case extPrv = "ext_prv"
                    case decodedPrv = "decoded_prv"
                }
            }
            let chains: [Chain]
        }
        let vectors: [Vector]
    }

    struct Merchants: Decodable {
        struct Form: Decodable {
            struct Address: Decodable {
                let branch: Int
                let index: UInt32
                let path: String
                let scriptPubKey: String
                let address: String
            }
            let purpose: Int
            let descriptor: String
            let singlePathDescriptors: [String]
            let accountKeyAsXpub: String
            let addresses: [Address]

            enum CodingKeys: String, CodingKey {
                case purpose, descriptor, addresses
                case singlePathDescriptors = "single_path_descriptors"
                case accountKeyAsXpub = "account_key_as_xpub"
            }
        }
        let forms: [Form]
    }

    struct DescriptorVectors: Decodable {
        struct Entry: Decodable {
            let descriptor: String
        }
        let valid: [Entry]
        let invalid: [Entry]
    }

    static func load<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"))
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    static func merchant(purpose: Int) throws -> Merchants.Form {
        try #require(try load(Merchants.self, "merchant_descriptors_computed").forms.first { $0.purpose == purpose })
    }

    /// `watcher wallets derive ARGUMENTS`.
    static func derive(_ arguments: [String], directory: URL? = nil) async throws -> WatcherProcess.Result {
        try await WatcherProcess.run(["wallets", "derive"] + arguments, directory: directory)
    }

    /// A key re-encoded with other version bytes (Base58Check of the 78 bytes).
    static func reversioned(_ serialized: [UInt8], _ version: [UInt8]) -> String {
        let body = version + serialized.dropFirst(4)
        return Base58.encode(body + Base58.checksum(body))
    }

    /// Whether `text` repeats ten or more consecutive characters of `key`.
    static func repeatsPart(of key: String, in text: String) -> Bool {
        let characters = Array(key)
        guard characters.count > 10 else { return text.contains(key) }
        return (0...(characters.count - 10)).contains { text.contains(String(characters[$0..<($0 + 10)])) }
    }

    // MARK: - Good input

    @Test("bip84_vectors.json: the account zpub gives the BIP's receive and change addresses, as text")
    func bip84ZpubAsText() async throws {
        let bip84 = try Self.load(BIP84.self, "bip84_vectors")
        // The BIP84 account key as a descriptor prints it: plain xpub version bytes (merchant_descriptors_computed.json,
        // purpose 84, account_key_as_xpub), no origin, so the paths are relative to the key.
        let body = "wpkh(\(try Self.merchant(purpose: 84).accountKeyAsXpub)/<0;1>/*)"
        let descriptor = body + "#" + (try #require(DescriptorChecksum.checksum(body)))
        let receive = try await Self.derive([bip84.accountZpub, "--count", "2"])
        #expect(receive.status == 0, "\(receive.stderr)")
        #expect(receive.stderr.isEmpty)
        #expect(
            receive.stdout == """
                \(descriptor)
                0  0/0  \(bip84.addresses[0].address)
                1  0/1  \(bip84.addresses[1].address)

                """
        )
        let change = try await Self.derive([bip84.accountZpub, "--branch", "change", "--count", "1"])
        #expect(change.status == 0, "\(change.stderr)")
        #expect(change.stdout == "\(descriptor)\n0  1/0  \(bip84.addresses[2].address)\n")
        // The default window is receive 0..<20.
        let defaults = try await Self.derive([bip84.accountZpub])
        let lines = defaults.stdout.split(separator: "\n")
        #expect(lines.count == 21)
        #expect(lines.last?.hasPrefix("19  0/19  bc1q") == true)
    }

    @Test("merchant_descriptors_computed.json: each descriptor's receive and change addresses, in JSON")
    func merchantDescriptors() async throws {
        let forms = try Self.load(Merchants.self, "merchant_descriptors_computed").forms
        #expect(forms.count == 4)
        for form in forms {
            for (branch, name) in ["receive", "change"].enumerated() {
                let expected = form.addresses.filter { $0.branch == branch }
                let result = try await Self.derive([form.descriptor, "--branch", name, "--count", "3", "--json"])
                #expect(result.status == 0, "\(form.descriptor): \(result.stderr)")
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                )
                #expect(json["descriptor"] as? String == form.descriptor)
                let addresses = try #require(json["addresses"] as? [[String: Any]])
                #expect(addresses.count == 3)
                for (vector, derived) in zip(expected, addresses) {
                    #expect(derived["branch"] as? String == name)
                    #expect(derived["index"] as? Int == Int(vector.index))
                    #expect(derived["path"] as? String == vector.path)
                    #expect(derived["address"] as? String == vector.address)
                    #expect(derived["scriptPubKey"] as? String == vector.scriptPubKey)
                }
            }
            // The single-path receive descriptor is a wallet of its own (receive only).
            let single = try await Self.derive([form.singlePathDescriptors[0], "--count", "1"])
            #expect(single.status == 0)
            #expect(single.stdout.hasPrefix(form.singlePathDescriptors[0] + "\n0  "))
        }
    }

    @Test("--json prints exactly {descriptor, addresses: [{branch, index, path, address, scriptPubKey}]}")
    func jsonShape() async throws {
        let form = try Self.merchant(purpose: 84)
        let vector = try #require(form.addresses.first { $0.branch == 1 && $0.index == 2 })
        let result = try await Self.derive([
            form.descriptor, "--branch", "change", "--from", "2", "--count", "1", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                {
                  "descriptor": "\(form.descriptor)",
                  "addresses": [
                    {
                      "branch": "change",
                      "index": 2,
                      "path": "\(vector.path)",
                      "address": "\(vector.address)",
                      "scriptPubKey": "\(vector.scriptPubKey)"
                    }
                  ]
                }

                """
        )
    }

    @Test("--from and --count choose the window; their bounds are 1...10000 and 0...(2^31-count)")
    func windows() async throws {
        let form = try Self.merchant(purpose: 86)
        let result = try await Self.derive([form.descriptor, "--from", "1", "--count", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = form.addresses.filter { $0.branch == 0 && $0.index >= 1 }
        #expect(
            result.stdout.split(separator: "\n").dropFirst().map(String.init)
                == expected.map { "\($0.index)  \($0.path)  \($0.address)" }
        )
        // The last window: --from 2^31-count, up to the last non-hardened index 2^31-1.
        let last = try await Self.derive([form.descriptor, "--from", "2147483628", "--count", "20", "--json"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(last.stdout.contains(#""index": 2147483647,"#))
        #expect(last.stdout.contains(#""path": "m/86'/0'/0'/0/2147483647""#))
        let lastOne = try await Self.derive([form.descriptor, "--from", "2147483647", "--count", "1", "--json"])
        #expect(lastOne.status == 0, "\(lastOne.stderr)")
        #expect(lastOne.stdout.contains(#""path": "m/86'/0'/0'/0/2147483647""#), "\(lastOne.stdout)")
        let most = try await Self.derive([form.descriptor, "--count", "10000"])
        #expect(most.status == 0)
        #expect(most.stdout.split(separator: "\n").count == 10_001)
        for (arguments, message) in [
            (["--count", "0"], "--count must be between 1 and 10000, not 0"),
            (["--count", "10001"], "--count must be between 1 and 10000, not 10001"),
            (["--from", "2147483629", "--count", "20"], "--from must be between 0 and 2147483628"),
            (["--from", "2147483628", "--count", "21"], "--from must be between 0 and 2147483627"),
            (["--from", "2147483648", "--count", "1"], "--from must be between 0 and 2147483647"),
            (["--from=-1"], "--from must be between 0 and 2147483628"),
            (["--from", "99999999999999999999"], "--from"),
            (["--branch", "sideways"], "sideways"),
            (["--network", "mainnet"], "mainnet"),
        ] {
            let refused = try await Self.derive([form.descriptor] + arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
    }

    @Test("bip49_vectors.json: --network test and regtest take test-network keys; bcrt1 on regtest")
    func testNetworks() async throws {
        let bip49 = try Self.load(BIP49.self, "bip49_vectors")
        let receive = bip49.firstReceive
        for network in ["test", "regtest"] {
            let result = try await Self.derive([bip49.upub, "--network", network, "--count", "1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("\n0  0/0  \(receive.address)\n"), "\(network): Base58 as on testnet")
        }
        // The same key as a vpub: P2WPKH of the same key hash, tb1 on testnet and signet, bcrt1 on regtest.
        let vpub = try ExtendedPublicKey(bip49.upub).with(version: .vpub).string
        for (network, prefix) in [("test", "tb1q"), ("regtest", "bcrt1q")] {
            let result = try await Self.derive([vpub, "--network", network, "--count", "1", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#""scriptPubKey": "0014\#(receive.keyhash)""#))
            #expect(result.stdout.contains(#""address": "\#(prefix)"#), "\(network)")
        }
    }

    @Test("a master key (depth 0) is accepted with a warning on stderr that does not repeat it")
    func masterKeyWarns() async throws {
        let bip32 = try Self.load(BIP32.self, "bip32_test_vectors")
        let master = try #require(bip32.vectors.first?.chains.first { $0.chain == "m" })
        let bip84 = try Self.load(BIP84.self, "bip84_vectors")
        for key in [master.extPub, bip84.rootpub, "pkh([3442193e]\(master.extPub)/0/*)"] {
            let result = try await Self.derive([key])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("warning: "))
            #expect(result.stderr.contains("master key (depth 0)"))
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(!Self.repeatsPart(of: master.extPub, in: result.stderr))
            #expect(!Self.repeatsPart(of: bip84.rootpub, in: result.stderr))
            #expect(result.stdout.split(separator: "\n").count == 21)
        }
    }

    @Test("offline: no config and no data directory needed, and none written")
    func offline() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bip84 = try Self.load(BIP84.self, "bip84_vectors")
        let result = try await Self.derive([bip84.accountZpub, "--count", "1"], directory: directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let help = try await WatcherProcess.run(["wallets", "derive", "--help"])
        #expect(help.stdout.contains("USAGE: watcher wallets derive <descriptor|xpub>"))
        let group = try await WatcherProcess.run(["wallets", "--help"])
        #expect(group.stdout.contains("derive"))
    }

    // MARK: - Bad input

    struct BadInput {
        let name: String
        let arguments: [String]
        let message: String
        let keys: [String]
    }

    static func badInputs() throws -> [BadInput] {
        let bip84 = try Self.load(BIP84.self, "bip84_vectors")
        let bip49 = try Self.load(BIP49.self, "bip49_vectors")
        let bip32 = try Self.load(BIP32.self, "bip32_test_vectors")
        let master = try #require(bip32.vectors.first?.chains.first { $0.chain == "m" })
        let wif = try #require(bip84.privkeysInBip["m/84'/0'/0'/0/0"])
        let form = try merchant(purpose: 84)
        let xpub = form.accountKeyAsXpub
        let origin = "[73c5da0a/84h/0h/0h]"
        // BIP32 vector 1's master private key under the tprv version bytes (04358394).
        let tprvBody =
            [0x04, 0x35, 0x83, 0x94, 0] + [UInt8](repeating: 0, count: 8)
            + (Hex.decode(master.decodedPrv.chainCode) ?? []) + [0] + (Hex.decode(master.decodedPrv.privateKey) ?? [])
        let tprv = Base58.encode(tprvBody + Base58.checksum(tprvBody))
        // BIP49's test-network account key under the tpub version bytes.
        let tpub = try ExtendedPublicKey(bip49.upub).with(version: .tpub).string
        // BIP84's account key under Litecoin's Ltub version bytes (019da462), which no Bitcoin wallet uses.
        let ltub = reversioned(try ExtendedPublicKey(bip84.accountZpub).serialized, [0x01, 0x9d, 0xa4, 0x62])
        let uncompressed = try #require(
            try load(DescriptorVectors.self, "descriptors_bip382_vectors").invalid.first {
                $0.descriptor.hasPrefix("wpkh(04")
            }?.descriptor
        )
        let tree = try #require(
            try load(DescriptorVectors.self, "descriptors_bip386_vectors").valid.first {
                $0.descriptor.hasPrefix("tr(a34b") && $0.descriptor.contains(",pk(")
            }?.descriptor
        )
        let hexKeys = { (text: String) in
            text.split { !$0.isHexDigit }.map(String.init).filter { $0.count >= 64 }
        }
        let watchOnly = "watch-only: give the extended public key"
        let body = String(form.descriptor.prefix { $0 != "#" })
        return [
            BadInput(name: "xprv", arguments: [master.extPrv], message: "xpub: \(watchOnly)", keys: [master.extPrv]),
            BadInput(
                name: "zprv",
                arguments: [bip84.accountZprv],
                message: "xpub: \(watchOnly)",
                keys: [bip84.accountZprv]
            ),
            BadInput(
                name: "tprv",
                arguments: [tprv, "--network", "test"],
                message: "xpub: \(watchOnly) (this is a private key: tprv)",
                keys: [tprv]
            ),
            BadInput(
                name: "uprv",
                arguments: [bip49.uprv, "--network", "test"],
                message: "xpub: \(watchOnly) (this is a private key: uprv)",
                keys: [bip49.uprv]
            ),
            BadInput(
                name: "WIF",
                arguments: [wif],
                message: "xpub: \(watchOnly) (this is a private key: WIF)",
                keys: [wif]
            ),
            BadInput(
                name: "testnet WIF",
                arguments: [bip49.firstReceive.wif, "--network", "test"],
                message: "xpub: \(watchOnly)",
                keys: [bip49.firstReceive.wif]
            ),
            BadInput(
                name: "WIF in a descriptor",
                arguments: ["wpkh(\(wif))"],
                message: "descriptor: \(watchOnly) (found a private key: WIF)",
                keys: [wif]
            ),
            BadInput(
                name: "xprv in a descriptor",
                arguments: ["wpkh(\(origin)\(master.extPrv)/<0;1>/*)"],
                message: "descriptor: \(watchOnly) (found a private key: xprv)",
                keys: [master.extPrv]
            ),
            BadInput(
                name: "hardened step after the key",
                arguments: ["wpkh(\(origin)\(xpub)/0h/*)"],
                message: "descriptor: hardened step 0h after the extended public key",
                keys: [xpub]
            ),
            BadInput(
                name: "hardened wildcard",
                arguments: ["wpkh(\(origin)\(xpub)/0/*')"],
                message: "descriptor: hardened step *' after the extended public key",
                keys: [xpub]
            ),
            BadInput(
                name: "wrong checksum",
                arguments: [body + "#qf45pmyj"],
                message: "descriptor: bad descriptor checksum #qf45pmyj: expected #qf45pmyh",
                keys: [xpub]
            ),
            BadInput(
                name: "tpub on mainnet",
                arguments: [tpub],
                message: "xpub: extended key tpub is for test networks, but the network is mainnet",
                keys: [tpub]
            ),
            BadInput(
                name: "tpub in a descriptor on mainnet",
                arguments: ["wpkh(\(tpub)/<0;1>/*)", "--network", "main"],
                message: "descriptor: extended key tpub is for test networks, but the network is mainnet",
                keys: [tpub]
            ),
            BadInput(
                name: "xpub on testnet",
                arguments: [form.descriptor, "--network", "test"],
                message: "descriptor: extended key xpub is for mainnet, but the network is testnet",
                keys: [xpub]
            ),
            BadInput(
                name: "zpub on regtest",
                arguments: [bip84.accountZpub, "--network", "regtest"],
                message: "xpub: extended key zpub is for mainnet, but the network is regtest",
                keys: [bip84.accountZpub]
            ),
            BadInput(
                name: "uncompressed key under segwit",
                arguments: [uncompressed],
                message: "descriptor: uncompressed keys are not allowed in wpkh()",
                keys: hexKeys(uncompressed)
            ),
            BadInput(
                name: "tr() with a script tree",
                arguments: [tree],
                message: "descriptor: tr() with a script tree is not supported",
                keys: hexKeys(tree)
            ),
            BadInput(
                name: "unknown prefix",
                arguments: [ltub],
                message: "xpub: invalid extended key: unknown version bytes 019da462",
                keys: [ltub]
            ),
            BadInput(
                name: "change of a receive-only descriptor",
                arguments: [form.singlePathDescriptors[0], "--branch", "change"],
                message: "descriptor: the wallet has no change branch",
                keys: [xpub]
            ),
        ]
    }

    @Test("bad input: exit 2, one line naming the argument and what is wrong, no key text")
    func badInput() async throws {
        let cases = try Self.badInputs()
        #expect(cases.allSatisfy { !$0.keys.isEmpty })
        for bad in cases {
            let result = try await Self.derive(bad.arguments)
            #expect(result.status == 2, "\(bad.name)")
            #expect(result.stdout.isEmpty, "\(bad.name)")
            #expect(result.stderr.hasPrefix("error: \(bad.message)"), "\(bad.name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(bad.name): \(result.stderr)")
            for key in bad.keys {
                #expect(!Self.repeatsPart(of: key, in: result.stderr), "\(bad.name) repeats key text: \(result.stderr)")
            }
        }
    }
}
