import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// Keys from public vectors (never made up): BIP84's account zpub, BIP32 test vector 1's master xpub and xprv,
/// BIP49's upub (testnet), BIP32 test vector 5's key with unknown version bytes, BIP380's WIF and uncompressed key,
/// and the computed BIP84/BIP86 merchant descriptors of shared/fixtures/wallets/merchant_descriptors_computed.json
/// (master fingerprint 73c5da0a, "abandon … about").
enum WalletKeys {
    static let zpub =
        "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
    static let masterXpub =
        "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
    static let masterXprv =
        "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
    static let upub =
        "upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY"
    static let unknownVersion =
        "DMwo58pR1QLEFihHiXPVykYB6fJmsTeHvyTp7hRThAtCX8CvYzgPcn8XnmdfHGMQzT7ayAmfo4z3gY5KfbrZWZ6St24UVf2Qgo6oujFktLHdHY4"
    static let wif = "L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1"
    static let uncompressed =
        "04a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd5b8dec5235a0fa8722476c7709c02559e3aa73aa03918ba2d492eea75abea235"
    /// BIP84's account key as a plain xpub.
    static let account84 =
        "xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V"
    static let wpkh84 = "wpkh([73c5da0a/84h/0h/0h]\(account84)/<0;1>/*)#qf45pmyh"
    static let account86 =
        "xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ"
}

extension ConfigErrorTests {
    static func wallet(_ fields: String) -> String {
        watch(#"{"id": "shop", "type": "wallet", "providers": ["bb"], \#(fields)}"#)
    }

    /// Bad `wallet` watches: each refused at its JSON path, never repeating key material.
    static let walletCases: [Case] = [
        Case(
            name: "wallet: extended private key",
            json: wallet(#""xpub": "\#(WalletKeys.masterXprv)""#),
            path: "watches[0].xpub",
            message: "watch-only: give the extended public key (this is a private key: xprv)"
        ),
        Case(
            name: "wallet: WIF private key",
            json: wallet(#""xpub": "\#(WalletKeys.wif)""#),
            path: "watches[0].xpub",
            message: "watch-only: give the extended public key (this is a private key: WIF)"
        ),
        Case(
            name: "wallet: private key inside a descriptor",
            json: wallet(#""descriptor": "wpkh(\#(WalletKeys.masterXprv)/<0;1>/*)""#),
            path: "watches[0].descriptor",
            message: "watch-only: give the extended public key (found a private key: xprv)"
        ),
        Case(
            name: "wallet: hardened step after the key",
            json: wallet(#""descriptor": "wpkh(\#(WalletKeys.account84)/0h/*)""#),
            path: "watches[0].descriptor",
            message: "hardened step 0h after the extended public key: CKDpub cannot derive it (watch-only: give the "
                + "extended public key at that depth, with the hardened steps in the key origin)"
        ),
        Case(
            name: "wallet: wrong checksum",
            json: wallet(#""descriptor": "\#(WalletKeys.wpkh84.dropLast(8))qf45pmyx""#),
            path: "watches[0].descriptor",
            message: "bad descriptor checksum #qf45pmyx: expected #qf45pmyh"
        ),
        Case(
            name: "wallet: testnet key on mainnet",
            json: wallet(#""xpub": "\#(WalletKeys.upub)""#),
            path: "watches[0].xpub",
            message: "extended key upub is for test networks, but the network is mainnet"
        ),
        Case(
            name: "wallet: uncompressed key under segwit",
            json: wallet(#""descriptor": "wpkh(\#(WalletKeys.uncompressed))""#),
            path: "watches[0].descriptor",
            message: "uncompressed keys are not allowed in wpkh()"
        ),
        Case(
            name: "wallet: tr() with a script tree",
            json: wallet(
                #""descriptor": "tr(\#(WalletKeys.account86)/<0;1>/*,pk(0260b2003c386519fc9eadf2b5cf124dd8eea4c4e68d5e154050a9346ea98ce600))""#
            ),
            path: "watches[0].descriptor",
            message: "tr() with a script tree is not supported"
        ),
        Case(
            name: "wallet: unknown prefix",
            json: wallet(#""xpub": "\#(WalletKeys.unknownVersion)""#),
            path: "watches[0].xpub",
            message: "invalid extended key: unknown version bytes 01010101 (not xpub/ypub/zpub/tpub/upub/vpub, "
                + "Ypub/Zpub/Upub/Vpub, or their private forms)"
        ),
        Case(
            name: "wallet: gap 0",
            json: wallet(#""xpub": "\#(WalletKeys.zpub)", "gap": 0"#),
            path: "watches[0].gap",
            message: "expected an integer from 1 to 10000, got 0"
        ),
        Case(
            name: "wallet: gap above 10,000",
            json: wallet(#""xpub": "\#(WalletKeys.zpub)", "gap": 10001"#),
            path: "watches[0].gap",
            message: "expected an integer from 1 to 10000, got 10001"
        ),
        Case(
            name: "wallet: neither descriptor nor xpub",
            json: wallet(#""gap": 20"#),
            path: "watches[0].descriptor",
            message: #"a wallet watch needs "descriptor" (an output descriptor) or "xpub" (an account-level key)"#
        ),
        Case(
            name: "wallet: both descriptor and xpub",
            json: wallet(#""xpub": "\#(WalletKeys.zpub)", "descriptor": "\#(WalletKeys.wpkh84)""#),
            path: "watches[0].xpub",
            message: #"give either "descriptor" or "xpub", not both"#
        ),
        Case(
            name: "wallet: a descriptor in xpub",
            json: wallet(#""xpub": "\#(WalletKeys.wpkh84)""#),
            path: "watches[0].xpub",
            message: #"expected a bare extended public key (xpub, ypub, zpub, tpub, upub or vpub); an output "#
                + #"descriptor goes in "descriptor""#
        ),
        Case(
            name: "wallet: the same wallet twice",
            json: config(
                watches: #"[{"id": "a", "type": "wallet", "providers": ["bb"], "xpub": "\#(WalletKeys.zpub)"}, "#
                    + #"{"id": "b", "type": "wallet", "providers": ["bb"], "descriptor": "\#(WalletKeys.wpkh84)"}]"#
            ),
            path: "watches[1].descriptor",
            message: "the same wallet as watches[0] (the same keys and script): follow a wallet once"
        ),
        Case(
            name: "wallet field on an address watch",
            json: watch(
                #"{"id": "a", "type": "address", "providers": ["bb"], "addresses": ["bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"], "gap": 5}"#
            ),
            path: "watches[0].gap",
            message: #""gap" belongs to wallet watches, not address"#
        ),
        Case(
            name: "xpub strategy on an address watch",
            json: watch(
                #"{"id": "a", "type": "address", "providers": ["bb"], "addresses": ["bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"], "strategy": "xpub"}"#
            ),
            path: "watches[0].strategy",
            message: #""xpub" is for wallet watches; an address watch takes auto, poll or scan"#
        ),
        Case(
            name: "xpub strategy for a multisig wallet",
            json: wallet(
                #""strategy": "xpub", "descriptor": "wsh(sortedmulti(1,\#(WalletKeys.account84)/<0;1>/*,\#(WalletKeys.account86)/<0;1>/*))""#
            ),
            path: "watches[0].strategy",
            message: "\"xpub\" takes a single-key wallet (pkh, sh(wpkh), wpkh, tr or a bare xpub/ypub/zpub); a "
                + "multisig p2wsh wallet is followed with poll or scan"
        ),
        Case(
            name: "xpub strategy on a provider without wallet summaries",
            json: config(
                providers: #"[{"id": "ra", "type": "rawaddr", "options": {}}]"#,
                watches:
                    #"[{"id": "shop", "type": "wallet", "providers": ["ra"], "strategy": "xpub", "xpub": "\#(WalletKeys.zpub)"}]"#
            ),
            path: "watches[0].providers[0]",
            message: "provider \"ra\" (rawaddr) cannot serve the xpub strategy: it lacks wallet summaries (use poll "
                + "or scan, or a provider such as blockbook)"
        ),
    ]

    @Test func aMasterKeyIsAWarning() throws {
        let config = try ConfigLoader(registry: .builtIn, environment: [:])
            .load(bytes: Array(Self.wallet(#""xpub": "\#(WalletKeys.masterXpub)""#).utf8))
        #expect(
            config.warnings.map(\.description).contains(
                "watches[0].xpub: a depth-0 master key: its addresses (m/0/i, m/1/i) rarely match a wallet's; give "
                    + "the account-level key (depth 3, e.g. m/84h/0h/0h)"
            )
        )
    }

    @Test func noRefusalRepeatsKeyMaterial() {
        for testCase in Self.walletCases {
            for issue in Self.errors(testCase.json) {
                for key in [WalletKeys.masterXprv, WalletKeys.wif, WalletKeys.upub, WalletKeys.account84] {
                    #expect(!issue.message.contains(String(key.prefix(20))), "\(testCase.name): \(issue.message)")
                }
            }
        }
    }
}
