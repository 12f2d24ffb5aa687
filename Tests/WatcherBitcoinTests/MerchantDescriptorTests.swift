import Foundation
import Testing
import WatcherBitcoin

@Suite("Merchant descriptors end to end")
struct MerchantDescriptorTests {
    struct Vectors: Decodable {
        struct Form: Decodable {
            struct Address: Decodable {
                let branch: Int
                let index: UInt32
                let path: String
                let scriptPubKey: String
                let address: String
            }
            let purpose: UInt32
            let scriptType: String
            let accountKeyAsPublished: String
            let accountKeyAsXpub: String
            let descriptor: String
            let singlePathDescriptors: [String]
            let addresses: [Address]
        }
        let masterFingerprint: String
        let forms: [Form]
    }

    @Test("merchant_descriptors_computed.json: parse → checksum → receive/change addresses and paths")
    func merchants() throws {
        let fixture = try Fixture.load(Vectors.self, "merchant_descriptors_computed")
        #expect(fixture.forms.count == 4)
        for form in fixture.forms {
            let wallet = try WalletDescriptor(parsing: form.descriptor, network: .mainnet)
            #expect(wallet.scriptType.rawValue == form.scriptType)
            #expect(wallet.scriptType.purpose == form.purpose)
            #expect(wallet.description == form.descriptor)
            #expect(wallet.receive.description == form.singlePathDescriptors[0])
            #expect(wallet.change?.description == form.singlePathDescriptors[1])
            #expect(wallet.isAccountLevel && !wallet.hasMasterKey)
            let origin = try #require(wallet.keyOrigins.first ?? nil)
            #expect(hex32(origin.fingerprint) == fixture.masterFingerprint)
            #expect(origin.path.description == "m/\(form.purpose)'/0'/0'")
            // The published SLIP-132 key is the same account key under other version bytes.
            let published = try ExtendedPublicKey(form.accountKeyAsPublished, network: .mainnet)
            #expect(published.with(version: .xpub).string == form.accountKeyAsXpub)
            #expect(wallet.extendedKeys == [published.with(version: .xpub)])
            #expect(form.addresses.count == 6)
            for vector in form.addresses {
                let branch = try #require(WalletDescriptor.Branch(rawValue: vector.branch))
                let derived = try wallet.address(branch, index: vector.index)
                #expect(derived.address.string == vector.address, "\(vector.path)")
                #expect(Hex.encode(derived.scriptPubKey) == vector.scriptPubKey, "\(vector.path)")
                #expect(derived.path.description == vector.path)
                #expect(try BitcoinAddress(vector.address).scriptPubKey == derived.scriptPubKey)
            }
            // Without the checksum, and with ' for hardened, the same wallet comes back normalised.
            let body = String(form.descriptor.prefix { $0 != "#" }).replacingOccurrences(of: "h/", with: "'/")
            let again = try WalletDescriptor(parsing: "  " + body + "\n", network: .mainnet)
            #expect(again == wallet)
            // A wrong checksum names the right one.
            let wrong = String(form.descriptor.dropLast(8)) + "qqqqqqqq"
            let error = thrownError(WalletError.self) { _ = try WalletDescriptor(parsing: wrong, network: .mainnet) }
            #expect(error?.description.contains("expected #" + form.descriptor.suffix(8)) == true)
            // Bare keys (taproot has no prefix, so its xpub reads as P2PKH) match the same addresses.
            if form.scriptType != "p2tr" {
                let bare = try WalletDescriptor(parsing: form.accountKeyAsPublished, network: .mainnet)
                #expect(bare.identity == wallet.identity)
                #expect(
                    try bare.address(.change, index: 2).scriptPubKey == wallet.address(.change, index: 2).scriptPubKey
                )
            }
        }
    }
}
