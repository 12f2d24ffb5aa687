import Testing
import WatcherBitcoin

@Suite("SLIP-132 prefixes and bare account keys")
struct SLIP132Tests {
    struct Vectors: Decodable {
        struct Version: Decodable {
            let coin: String
            let publicVersionHex: String
            let publicPrefix: String
            let privateVersionHex: String
            let privatePrefix: String
        }
        struct Vector: Decodable {
            let accountPath: String
            let accountXprv: String
            let accountXpub: String
            let prefix: String
            let scriptType: String
            let firstReceivePath: String
            let firstReceiveAddress: String
            let firstReceiveScriptPubKeyComputed: String
            let firstReceivePubkeyComputed: String
        }
        let versionBytes: [Version]
        let vectors: [Vector]
    }

    @Test("slip0132_vectors.json: the ten version pairs and the xpub/ypub/zpub → first receive address vectors")
    func slip132() throws {
        let fixture = try Fixture.load(Vectors.self, "slip0132_vectors")
        #expect(fixture.versionBytes.count == ExtendedKeyVersion.allCases.count)
        let sample = try ExtendedPublicKey(fixture.vectors[0].accountXpub)
        for row in fixture.versionBytes {
            let version = try #require(ExtendedKeyVersion(rawValue: row.publicPrefix), "\(row.publicPrefix)")
            #expect(hex32(version.publicVersion) == row.publicVersionHex)
            #expect(hex32(version.privateVersion) == row.privateVersionHex)
            #expect(version.privatePrefix == row.privatePrefix)
            #expect(version.network == (row.coin == "Bitcoin" ? .mainnet : .testnet))
            // Each version Base58-encodes to its prefix and parses back.
            let reencoded = sample.with(version: version)
            #expect(reencoded.string.hasPrefix(row.publicPrefix))
            #expect(try ExtendedPublicKey(reencoded.string) == reencoded)
            // A bare key of a multisig prefix is refused: multisig needs a descriptor with every cosigner.
            let wallet = thrownError(WalletError.self) {
                _ = try WalletDescriptor(accountKey: reencoded, network: version.network)
            }
            #expect(wallet == (version.isMultisig ? .multisigPrefix(version) : nil), "\(version)")
        }
        #expect(fixture.vectors.count == 3)
        for vector in fixture.vectors {
            let key = try ExtendedPublicKey(vector.accountXpub, network: .mainnet)
            #expect(key.version.rawValue == vector.prefix)
            #expect(key.version.impliedScript.rawValue == vector.scriptType)
            let privateError = thrownError(ExtendedKeyError.self) { _ = try ExtendedPublicKey(vector.accountXprv) }
            #expect(privateError == .privateKey(kind: key.version.privatePrefix))
            let wallet = try WalletDescriptor(parsing: vector.accountXpub, network: .mainnet)
            #expect(wallet.scriptType.rawValue == vector.scriptType)
            #expect(wallet.isAccountLevel && !wallet.hasMasterKey)
            let first = try wallet.address(.receive, index: 0)
            #expect(first.address.string == vector.firstReceiveAddress, "\(vector.prefix)")
            #expect(Hex.encode(first.scriptPubKey) == vector.firstReceiveScriptPubKeyComputed, "\(vector.prefix)")
            #expect(Hex.encode(try key.derive([0, 0]).publicKey) == vector.firstReceivePubkeyComputed)
            #expect(first.path.description == "0/0")
            #expect(vector.firstReceivePath.hasSuffix("/" + first.path.description))
            #expect(try wallet.address(.change, index: 0).path.description == "1/0")
        }
    }

    @Test("Bare keys normalise to the descriptor a wallet exports, and test prefixes pick the same scripts")
    func bareKeyShapes() throws {
        let fixture = try Fixture.load(Vectors.self, "slip0132_vectors")
        let zpub = try ExtendedPublicKey(fixture.vectors[2].accountXpub)
        let bare = try WalletDescriptor(accountKey: zpub, network: .mainnet)
        let xpub = zpub.with(version: .xpub).string
        #expect(bare.descriptor.body == "wpkh(\(xpub)/<0;1>/*)")
        let exported = try WalletDescriptor(parsing: "wpkh([73c5da0a/84h/0h/0h]\(xpub)/<0;1>/*)", network: .mainnet)
        #expect(exported.identity == bare.identity)
        let pair = try WalletDescriptor(
            receive: Descriptor("wpkh(\(xpub)/0/*)", network: .mainnet),
            change: Descriptor("wpkh(\(xpub)/1/*)", network: .mainnet)
        )
        #expect(pair.identity == bare.identity)
        #expect(try pair.address(.change, index: 3) == bare.address(.change, index: 3))
        #expect(try exported.address(.receive, index: 7).path.description == "m/84'/0'/0'/0/7")
        for (prefix, script) in [(ExtendedKeyVersion.tpub, ScriptType.p2pkh), (.upub, .p2shP2wpkh), (.vpub, .p2wpkh)] {
            let wallet = try WalletDescriptor(accountKey: zpub.with(version: prefix), network: .testnet)
            #expect(wallet.scriptType == script)
            #expect(try wallet.address(.receive, index: 0).address.network == .testnet)
            #expect(wallet.descriptor.body.contains("tpub"))
        }
        let master = try ExtendedPublicKey(
            "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
        )
        let masterWallet = try WalletDescriptor(accountKey: master, network: .mainnet)
        #expect(masterWallet.hasMasterKey && !masterWallet.isAccountLevel)
    }
}
