import Foundation
import Testing
import WatcherBitcoin

/// Loads the JSON fixtures copied into `Fixtures/` (see `Fixtures/SOURCES.md`).
enum Fixture {
    /// Decodes `Fixtures/<name>.json`, reading `snake_case` keys as camelCase (`scriptPubKey_computed` is
    /// `scriptPubKeyComputed`: capitals already in a key are kept).
    static func load<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/wallets/\(name)", withExtension: "json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let parts = (path.last?.stringValue ?? "").split(separator: "_")
            let camel = parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }
            return Key(stringValue: camel.joined())
        }
        return try decoder.decode(T.self, from: Data(contentsOf: url))
    }

    /// A coding key made from a string.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Hex-decodes a fixture value (test data is always valid hex).
func bytes(_ hex: String) -> [UInt8] {
    Hex.decode(hex) ?? []
}

/// A 32-bit value as 8 hex digits, big-endian (how fixtures write versions and fingerprints).
func hex32(_ value: UInt32) -> String {
    Hex.encode([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
}

/// Runs `body` and returns the error of type `E` it throws, or `nil` (recording an issue for another type).
func thrownError<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do {
        try body()
        return nil
    } catch let error as E {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

/// The decoded fields of an extended key, as the fixtures spell them.
struct DecodedKey: Decodable {
    let versionHex: String
    let prefix: String
    let depth: UInt8
    let parentFingerprint: String
    let childNumber: UInt32
    let chainCode: String
    let publicKey: String
    let fingerprint: String
    let identifierHash160: String

    /// Records an issue for every field `key` does not match.
    func check(_ key: ExtendedPublicKey, _ label: String) {
        #expect(hex32(key.version.publicVersion) == versionHex, "\(label)")
        #expect(key.version.rawValue == prefix, "\(label)")
        #expect(key.depth == depth, "\(label)")
        #expect(hex32(key.parentFingerprint) == parentFingerprint, "\(label)")
        #expect(key.childNumber == childNumber, "\(label)")
        #expect(Hex.encode(key.chainCode) == chainCode, "\(label)")
        #expect(Hex.encode(key.publicKey) == publicKey, "\(label)")
        #expect(hex32(key.fingerprint) == fingerprint, "\(label)")
        #expect(Hex.encode(key.identifier) == identifierHash160, "\(label)")
    }
}
