import Foundation
import Testing
import WatcherBitcoin

/// The shape shared by the BIP381, BIP382 and BIP386 fixtures.
struct DescriptorVectors: Decodable {
    struct Valid: Decodable {
        let descriptor: String
        let scripts: [String]
        let checksumComputed: String
        let ranged: Bool
        let containsPrivateKey: Bool
        let hardenedStepAfterExtendedKey: Bool
    }
    struct Invalid: Decodable {
        let labelInBip: String
        let descriptor: String
    }
    let valid: [Valid]
    let invalid: [Invalid]
}

@Suite("Descriptor vectors: BIP381 pk/pkh/sh, BIP382 wpkh/wsh, BIP386 tr")
struct DescriptorVectorTests {
    /// What a watch-only parser must do with one valid vector.
    enum Outcome: Equatable {
        case scripts
        case privateKey
        case hardenedStep
        case scriptTree
    }

    static func outcome(_ vector: DescriptorVectors.Valid) -> Outcome {
        if vector.descriptor.hasPrefix("tr("), vector.descriptor.contains(",") { return .scriptTree }
        if vector.containsPrivateKey { return .privateKey }
        if vector.hardenedStepAfterExtendedKey { return .hardenedStep }
        return .scripts
    }

    /// Checks every vector of one file; returns how many produced scripts.
    @discardableResult
    static func check(_ name: String, validCount: Int, invalidCount: Int) throws -> Int {
        let fixture = try Fixture.load(DescriptorVectors.self, name)
        #expect(fixture.valid.count == validCount)
        #expect(fixture.invalid.count == invalidCount)
        var derived = 0
        for vector in fixture.valid {
            #expect(DescriptorChecksum.checksum(vector.descriptor) == vector.checksumComputed, "\(vector.descriptor)")
            let withChecksum = vector.descriptor + "#" + vector.checksumComputed
            switch Self.outcome(vector) {
            case .scripts:
                let descriptor = try Descriptor(withChecksum, network: .mainnet)
                #expect(descriptor.isRanged == vector.ranged, "\(vector.descriptor)")
                for (index, script) in vector.scripts.enumerated() {
                    let computed = try descriptor.scriptPubKey(index: UInt32(index))
                    #expect(Hex.encode(computed) == script, "\(vector.descriptor) at \(index)")
                }
                #expect(descriptor.body == vector.descriptor.replacingOccurrences(of: "'", with: "h"))
                #expect(try Descriptor(descriptor.description, network: .mainnet) == descriptor)
                derived += 1
            case .privateKey:
                let error = thrownError(DescriptorError.self) { _ = try Descriptor(withChecksum, network: .mainnet) }
                guard case .privateKey = error else {
                    Issue.record("\(vector.descriptor): \(String(describing: error))")
                    continue
                }
                #expect(error?.description.hasPrefix("watch-only: give the extended public key") == true)
            case .hardenedStep:
                let error = thrownError(DescriptorError.self) { _ = try Descriptor(withChecksum, network: .mainnet) }
                guard case .hardenedStep = error else {
                    Issue.record("\(vector.descriptor): \(String(describing: error))")
                    continue
                }
            case .scriptTree:
                let error = thrownError(DescriptorError.self) { _ = try Descriptor(withChecksum, network: .mainnet) }
                #expect(error == .scriptTreeNotSupported, "\(vector.descriptor)")
            }
        }
        for vector in fixture.invalid {
            let error = thrownError(DescriptorError.self) { _ = try Descriptor(vector.descriptor, network: .mainnet) }
            #expect(error != nil, "\(vector.labelInBip)")
            if case .privateKey = error { Issue.record("\(vector.labelInBip): refused only as a private key") }
        }
        return derived
    }

    @Test("descriptors_bip381_vectors.json: pk(), pkh(), sh()")
    func bip381() throws {
        #expect(try Self.check("descriptors_bip381_vectors", validCount: 17, invalidCount: 4) == 9)
    }

    @Test("descriptors_bip382_vectors.json: wpkh(), wsh(), uncompressed keys under segwit")
    func bip382() throws {
        #expect(try Self.check("descriptors_bip382_vectors", validCount: 12, invalidCount: 11) == 5)
    }

    @Test("descriptors_bip386_vectors.json: tr(KEY); script trees refused")
    func bip386() throws {
        #expect(try Self.check("descriptors_bip386_vectors", validCount: 6, invalidCount: 4) == 1)
    }

    @Test("Nesting rules and uncompressed keys name the offending part")
    func messages() throws {
        let key = "03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd"
        let uncompressed =
            "04a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd5b8dec5235a0fa8722476c7709c02559e3"
            + "aa73aa03918ba2d492eea75abea235"
        let cases: [(String, DescriptorError)] = [
            ("pk(pk(\(key)))", .expectedKey(function: "pk")),
            ("sh(\(key))", .expectedScript(function: "sh")),
            ("sh(sh(pkh(\(key))))", .misplacedFunction("sh", context: "except at top level")),
            ("wsh(wpkh(\(key)))", .misplacedFunction("wpkh", context: "inside wsh()")),
            ("wpkh(\(uncompressed))", .uncompressedKey(function: "wpkh")),
            ("wsh(pk(\(uncompressed)))", .uncompressedKey(function: "pk")),
            ("tr(\(uncompressed))", .uncompressedKey(function: "tr")),
            ("sh(tr(\(key)))", .misplacedFunction("tr", context: "inside sh()")),
            ("wpkh(\(key.dropLast(2)))", .xOnlyKeyOutsideTaproot),
            ("combo(\(key))", .unsupportedFunction("combo")),
            ("foo(\(key))", .unknownFunction("foo")),
            ("wsh(sortedmulti(3,\(key),\(key)))", .thresholdOutOfRange(threshold: 3, keys: 2)),
        ]
        for (text, expected) in cases {
            let error = thrownError(DescriptorError.self) { _ = try Descriptor(text, network: .mainnet) }
            #expect(error == expected, "\(text)")
        }
    }
}
