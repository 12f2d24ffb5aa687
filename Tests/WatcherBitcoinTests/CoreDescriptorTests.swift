import Testing
import WatcherBitcoin

@Suite("Bitcoin Core descriptor tests (subset)")
struct CoreDescriptorTests {
    struct Vectors: Decodable {
        struct Check: Decodable {
            let prv: String
            let pub: String
            let normPub: String
            let flags: [String]
            let scripts: [[String]]
            let xpubOnlyDerivable: Bool
            let normPubXpubOnlyDerivable: Bool
            let checksumComputedNormPub: String
        }
        struct Multipath: Decodable {
            let prv: String
            let pub: String
            let expandedNormPubs: [String]
            let flags: [String]
            let scripts: [[[String]]]
        }
        struct Unparsable: Decodable {
            let prv: String
            let pub: String
            let error: String
        }
        let check: [Check]
        let checkMultipath: [Multipath]
        let unparsable: [Unparsable]
    }

    /// Parses `text`, expecting the watch-only refusal when `derivable` is false or a private key is in it.
    static func expectRefused(_ text: String, privateKey: Bool) {
        let error = thrownError(DescriptorError.self) { _ = try Descriptor(text, network: .mainnet) }
        switch error {
        case .privateKey where privateKey, .hardenedStep where !privateKey, .scriptTreeNotSupported: break
        default: Issue.record("\(text): \(String(describing: error))")
        }
    }

    @Test("descriptors_bitcoin_core_subset.json: Check, CheckMultipath and CheckUnparsable cases")
    func core() throws {
        let fixture = try Fixture.load(Vectors.self, "descriptors_bitcoin_core_subset")
        #expect(fixture.check.count == 10)
        var printed = 0
        for vector in fixture.check {
            Self.expectRefused(vector.prv, privateKey: true)
            if !vector.xpubOnlyDerivable { Self.expectRefused(vector.pub, privateKey: false) }
            guard vector.normPubXpubOnlyDerivable else {
                Self.expectRefused(vector.normPub, privateKey: false)
                continue
            }
            if vector.pub.hasPrefix("tr("), vector.pub.contains(",") {
                Self.expectRefused(vector.normPub, privateKey: false)
                continue
            }
            let descriptor = try Descriptor(vector.normPub, network: .mainnet)
            #expect(descriptor.body == vector.normPub)
            #expect(descriptor.checksum == vector.checksumComputedNormPub)
            if vector.xpubOnlyDerivable {
                #expect(try Descriptor(vector.pub, network: .mainnet).body == vector.normPub, "\(vector.pub)")
            }
            #expect(descriptor.isRanged == vector.flags.contains("RANGE"))
            for (index, scripts) in vector.scripts.enumerated() {
                #expect(scripts.count == 1)
                #expect(
                    Hex.encode(try descriptor.scriptPubKey(index: UInt32(index))) == scripts[0],
                    "\(vector.normPub)"
                )
            }
            printed += 1
        }
        #expect(printed == 8)

        #expect(fixture.checkMultipath.count == 5)
        var expanded = 0
        for vector in fixture.checkMultipath {
            Self.expectRefused(vector.prv, privateKey: true)
            if vector.flags.contains("HARDENED") {
                Self.expectRefused(vector.pub, privateKey: false)
                continue
            }
            let descriptor = try Descriptor(vector.pub, network: .mainnet)
            #expect(descriptor.branches().map(\.body) == vector.expandedNormPubs)
            for (branch, positions) in vector.scripts.enumerated() {
                for (index, scripts) in positions.enumerated() {
                    let script = try descriptor.scriptPubKey(branch: branch, index: UInt32(index))
                    #expect(Hex.encode(script) == scripts[0], "\(vector.pub) branch \(branch) at \(index)")
                }
            }
            expanded += 1
        }
        #expect(expanded == 3)

        #expect(fixture.unparsable.count == 10)
        let expected: [DescriptorError] = [
            .xOnlyKeyOutsideTaproot, .missingOriginStart, .multipleOrigins, .uncompressedKey(function: "wpkh"),
            .uncompressedKey(function: "wpkh"), .publicKey(.invalidEncoding(length: 65, prefix: 0x07)),
            .unsupportedFunction("combo"), .pathElementOutOfRange("2147483648"), .invalidPathElement("1aa"),
            .invalidPathElement("+1"),
        ]
        for (vector, error) in zip(fixture.unparsable, expected) {
            #expect(
                thrownError(DescriptorError.self) { _ = try Descriptor(vector.pub, network: .mainnet) } == error,
                "\(vector.error)"
            )
            if !vector.prv.isEmpty {
                let prvError = thrownError(DescriptorError.self) { _ = try Descriptor(vector.prv, network: .mainnet) }
                #expect(prvError != nil, "\(vector.error)")
                if case .privateKey = prvError { Issue.record("\(vector.error): refused only as a private key") }
            }
        }
    }
}
