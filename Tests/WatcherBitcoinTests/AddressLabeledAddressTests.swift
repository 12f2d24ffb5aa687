import Testing
import WatcherBitcoin
import WatcherCore

/// ``LabeledAddress/init(parsing:)``: a plain address or a `bitcoin:` URI carrying a label.
@Suite("Address or bitcoin: URI input")
struct AddressLabeledAddressTests {
    static let p2wpkh = "bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5n2"

    @Test("a plain address has no label; whitespace around it is ignored")
    func plainAddress() throws {
        for text in [Self.p2wpkh, Self.p2wpkh.uppercased(), "  \(Self.p2wpkh)\n", "\t\(Self.p2wpkh)"] {
            let input = try LabeledAddress(parsing: text)
            #expect(input.address.string == Self.p2wpkh)
            #expect(input.label == nil)
        }
    }

    @Test("a URI gives its path address and its label")
    func uriWithLabel() throws {
        let input = try LabeledAddress(parsing: "bitcoin:\(Self.p2wpkh)?label=Cold%20storage&amount=0.5")
        #expect(input == LabeledAddress(address: try BitcoinAddress(Self.p2wpkh), label: "Cold storage"))
        let upper = try LabeledAddress(parsing: "BITCOIN:\(Self.p2wpkh.uppercased())?LABEL=SAVINGS")
        #expect(upper.address.string == Self.p2wpkh)
        #expect(upper.label == "SAVINGS")
        #expect(try LabeledAddress(parsing: "bitcoin:\(Self.p2wpkh)?label=").label == nil)
        #expect(try LabeledAddress(parsing: "bitcoin:2NAeQVZayzVFAtgeC3iYJsjpjWDmsDph71A").address.kind == .p2sh)
    }

    @Test("errors keep their cause")
    func errors() {
        #expect(throws: AddressInputError.address(.badBase58Checksum("175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W"))) {
            try LabeledAddress(parsing: "bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?label=Luke-Jr")
        }
        #expect(throws: AddressInputError.uri(.duplicateParameter("label"))) {
            try LabeledAddress(parsing: "bitcoin:\(Self.p2wpkh)?label=a&label=b")
        }
        #expect(throws: AddressInputError.noOnChainAddress("bitcoin:?lightning=lnbc1")) {
            try LabeledAddress(parsing: "bitcoin:?lightning=lnbc1")
        }
        #expect(throws: AddressInputError.address(.empty)) { try LabeledAddress(parsing: "   ") }
        #expect(
            AddressInputError.noOnChainAddress("bitcoin:?lno=x").description
                == "bitcoin: URI \"bitcoin:?lno=x\" carries no on-chain address in its path"
        )
        #expect(AddressInputError.uri(.popAndReqPop).description == URIError.popAndReqPop.description)
    }
}
