import Foundation
import Testing
import WatcherBitcoin

@Suite("BIP380 checksums and KEY expressions")
struct BIP380Tests {
    struct Vectors: Decodable {
        struct Checksum: Decodable {
            let labelInBip: String
            let descriptor: String
            let valid: Bool
        }
        struct Key: Decodable {
            let labelInBip: String
            let key: String
        }
        struct Keys: Decodable {
            let valid: [Key]
            let invalid: [Key]
        }
        let checksum: [Checksum]
        let keyExpressions: Keys
    }

    @Test("bip380 checksum vectors: valid, missing, too long, too short, payload and checksum errors")
    func checksums() throws {
        let fixture = try Fixture.load(Vectors.self, "bip380_checksum_and_key_expression_vectors")
        #expect(fixture.checksum.count == 8)
        for vector in fixture.checksum {
            let error = thrownError(DescriptorError.self) { _ = try Descriptor(vector.descriptor, network: .mainnet) }
            #expect(
                (error == nil) == vector.valid,
                "\(vector.labelInBip): \(error.map(String.init(describing:)) ?? "")"
            )
        }
        #expect(DescriptorChecksum.checksum("raw(deadbeef)") == "89f8spxm")
        let normalised = try Descriptor("raw(deadbeef)", network: .mainnet)
        #expect(normalised.description == "raw(deadbeef)#89f8spxm")
        let mismatch = thrownError(DescriptorError.self) {
            _ = try Descriptor("raw(deedbeef)#89f8spxm", network: .mainnet)
        }
        let expected = try #require(DescriptorChecksum.checksum("raw(deedbeef)"))
        #expect(mismatch == .checksumMismatch(expected: expected, found: "89f8spxm"))
        #expect(mismatch?.description.contains("#" + expected) == true)
        #expect(
            thrownError(DescriptorError.self) { _ = try Descriptor("raw(deadbeef)#", network: .mainnet) }
                == .missingChecksum
        )
        #expect(
            thrownError(DescriptorError.self) { _ = try Descriptor("raw(deadbeef)#89f8spx", network: .mainnet) }
                == .checksumLength(7)
        )
        #expect(
            thrownError(DescriptorError.self) { _ = try Descriptor("raw(deedbeef)##9f8spxm", network: .mainnet) }
                == .multipleChecksumSeparators
        )
        #expect(
            thrownError(DescriptorError.self) { _ = try Descriptor("raw(Ü)#00000000", network: .mainnet) }
                == .invalidCharacter("Ü", offset: 4)
        )
    }

    /// The fixture's one mangled label (wiki markup leaked into `key`); the key is the text after `<tt>`.
    static func repaired(_ key: String) -> String {
        guard let range = key.range(of: "<tt>", options: .backwards) else { return key }
        return String(key[range.upperBound...])
    }

    @Test("bip380 KEY expressions: public forms parse, private and hardened forms hit the watch-only check")
    func keyExpressions() throws {
        let fixture = try Fixture.load(Vectors.self, "bip380_checksum_and_key_expression_vectors")
        #expect(fixture.keyExpressions.valid.count == 21)
        var parsed = 0
        for vector in fixture.keyExpressions.valid {
            let text = Self.repaired(vector.key)
            let isPrivate = text.contains("xprv") || text.hasPrefix("5") || text.hasPrefix("L")
            let hardenedAfterKey =
                text.split(separator: "]").last?.split(separator: "/").dropFirst()
                .contains { $0.hasSuffix("h") || $0.hasSuffix("'") } ?? false
            do {
                let key = try DescriptorKey(text, network: .mainnet)
                #expect(!isPrivate && !hardenedAfterKey, "\(vector.labelInBip) parsed")
                #expect(key.description == text.replacingOccurrences(of: "'", with: "h"), "\(vector.labelInBip)")
                parsed += 1
            } catch {
                if isPrivate {
                    guard case .privateKey = error else {
                        Issue.record("\(vector.labelInBip): \(error)")
                        continue
                    }
                    #expect(error.description.hasPrefix("watch-only: give the extended public key"))
                    #expect(!error.description.contains(text.suffix(20)))
                } else {
                    #expect(hardenedAfterKey, "\(vector.labelInBip): \(error)")
                    guard case .hardenedStep = error else {
                        Issue.record("\(vector.labelInBip): \(error)")
                        continue
                    }
                }
            }
        }
        #expect(parsed == 9)
        #expect(fixture.keyExpressions.invalid.count == 16)
        for vector in fixture.keyExpressions.invalid {
            let error = thrownError(DescriptorError.self) { _ = try DescriptorKey(vector.key, network: .mainnet) }
            #expect(error != nil, "\(vector.labelInBip)")
            if case .privateKey = error { Issue.record("\(vector.labelInBip): refused by the watch-only check") }
            if case .hardenedStep = error { Issue.record("\(vector.labelInBip): refused by the watch-only check") }
        }
    }
}
