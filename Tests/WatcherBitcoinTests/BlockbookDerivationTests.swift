import Testing
import WatcherBitcoin

@Suite("A real Blockbook xpub response")
struct BlockbookDerivationTests {
    struct Derivation: Decodable {
        struct Token: Decodable {
            let path: String
            let relativePath: [UInt32]
            let address: String
            let scriptPubKeyComputed: String
            let pubkeyComputed: String
        }
        let zpub: String
        let zpubDecoded: DecodedKey
        let tokens: [Token]
    }

    @Test("zpub_mainnet_blockbook_derivation.json: every token path re-derives to its address")
    func derivation() throws {
        let fixture = try Fixture.load(Derivation.self, "zpub_mainnet_blockbook_derivation")
        let key = try ExtendedPublicKey(fixture.zpub, network: .mainnet)
        fixture.zpubDecoded.check(key, "zpub")
        let wallet = try WalletDescriptor(parsing: fixture.zpub, network: .mainnet)
        #expect(fixture.tokens.count == 8)
        for token in fixture.tokens {
            let full = try #require(DerivationPath(token.path))
            #expect(Array(full.components.suffix(2)) == token.relativePath)
            let branch = try #require(WalletDescriptor.Branch(rawValue: Int(token.relativePath[0])))
            let derived = try wallet.address(branch, index: token.relativePath[1])
            #expect(derived.address.string == token.address, "\(token.path)")
            #expect(Hex.encode(derived.scriptPubKey) == token.scriptPubKeyComputed, "\(token.path)")
            #expect(Hex.encode(try key.derive(token.relativePath).publicKey) == token.pubkeyComputed)
            #expect(token.path.hasSuffix("/" + derived.path.description))
        }
    }

    struct Response: Decodable {
        struct Token: Decodable {
            let name: String
            let path: String
        }
        struct Transaction: Decodable {
            struct Output: Decodable {
                let hex: String?
                let addresses: [String]?
            }
            let vout: [Output]
        }
        let address: String
        let usedTokens: Int
        let tokens: [Token]
        let transactions: [Transaction]
    }

    @Test("blockbook-xpub-zpub-mainnet-txs.json: decode, re-derive tokens[].name from tokens[].path, match outputs")
    func response() throws {
        let fixture = try Fixture.load(Response.self, "blockbook-xpub-zpub-mainnet-txs")
        let wallet = try WalletDescriptor(parsing: fixture.address, network: .mainnet)
        #expect(fixture.tokens.count == 8)
        var ours: [String: [UInt8]] = [:]
        for token in fixture.tokens {
            let path = try #require(DerivationPath(token.path))
            let components = path.components
            #expect(components.count == 5 && path.isAbsolute)
            let branch = try #require(WalletDescriptor.Branch(rawValue: Int(components[3])))
            let derived = try wallet.address(branch, index: components[4])
            #expect(derived.address.string == token.name, "\(token.path)")
            ours[token.name] = derived.scriptPubKey
        }
        // Outputs paying to a listed token carry exactly the derived scriptPubKey.
        var matched = 0
        for output in fixture.transactions.flatMap(\.vout) {
            guard let address = output.addresses?.first, let script = ours[address] else { continue }
            #expect(output.hex == Hex.encode(script))
            matched += 1
        }
        #expect(matched > 0)
    }
}
