import Foundation
import Testing

/// Loads the vector files in `Fixtures/addresses` (see SOURCES.md there).
enum AddressFixtures {
    /// Decodes `Fixtures/addresses/<name>.json`.
    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/addresses/\(name)", withExtension: "json"))
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    /// Parses hex (either case) into bytes.
    static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        try #require(digits.count.isMultiple(of: 2), "odd-length hex \(hex)")
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            try #require(UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16))
        }
    }

    /// Lower-case hex of bytes.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0 >> 4, radix: 16) + String($0 & 0xf, radix: 16) }.joined()
    }

    /// `bech32_bip173_strings.json` and `bech32m_bip350_strings.json`.
    struct StringVectors: Decodable, Sendable {
        let valid: [String]
        let invalid: [Invalid]

        struct Invalid: Decodable, Sendable, CustomTestStringConvertible {
            let string: String
            let reason: String
            var testDescription: String { "\(string.debugDescription) (\(reason))" }
        }
    }

    /// `segwit_addresses_bip350.json`.
    struct SegwitVectors: Decodable, Sendable {
        let valid: [Valid]
        let invalid: [InvalidAddress]

        struct Valid: Decodable, Sendable, CustomTestStringConvertible {
            let address: String
            let scriptPubKey: String
            let witnessVersion: UInt8
            let hrp: String
            var testDescription: String { address }

            enum CodingKeys: String, CodingKey {
                case address, scriptPubKey, hrp
                case witnessVersion = "witness_version"
            }
        }
    }

    /// `segwit_addresses_bip173_original.json`.
    struct OriginalSegwitVectors: Decodable, Sendable {
        let validPerBIP173: [Entry]
        let invalid: [InvalidAddress]

        struct Entry: Decodable, Sendable, CustomTestStringConvertible {
            let address: String
            let scriptPubKey: String
            let witnessVersion: UInt8
            let validUnderBIP350: Bool
            var testDescription: String { address }

            enum CodingKeys: String, CodingKey {
                case address, scriptPubKey
                case witnessVersion = "witness_version"
                case validUnderBIP350 = "valid_under_bip350"
            }
        }

        enum CodingKeys: String, CodingKey {
            case invalid
            case validPerBIP173 = "valid_per_bip173"
        }
    }

    /// An invalid address with the reason the BIP gives.
    struct InvalidAddress: Decodable, Sendable, CustomTestStringConvertible {
        let address: String
        let reason: String
        var testDescription: String { "\(address) (\(reason))" }
    }

    /// `base58_encode_decode_bitcoin_core.json`.
    struct Base58Vectors: Decodable, Sendable {
        let vectors: [Vector]

        struct Vector: Decodable, Sendable, CustomTestStringConvertible {
            let hex: String
            let base58: String
            var testDescription: String { base58.isEmpty ? "(empty)" : base58 }
        }
    }

    /// `key_io_valid_addresses_bitcoin_core.json`.
    struct KeyIOValid: Decodable, Sendable {
        let valid: [Entry]

        struct Entry: Decodable, Sendable, CustomTestStringConvertible {
            let address: String
            let scriptPubKey: String
            let chain: String
            let type: String
            var testDescription: String { "\(address) (\(chain) \(type))" }
        }
    }

    /// `key_io_invalid_bitcoin_core.json`.
    struct KeyIOInvalid: Decodable, Sendable {
        let invalid: [String]
    }

    /// `bip21_uri_examples.json`.
    struct BIP21Vectors: Decodable, Sendable {
        let valid: [Valid]
        let invalid: [InvalidURI]
        let amountRules: AmountRules

        struct Valid: Decodable, Sendable, CustomTestStringConvertible {
            let uri: String
            let description: String
            let expected: Expected
            var testDescription: String { description }
        }

        struct Expected: Decodable, Sendable {
            let address: String
            let amount: String?
            let amountSats: Int64?
            let label: String?
            let message: String?

            enum CodingKeys: String, CodingKey {
                case address, amount, label, message
                case amountSats = "amount_sats"
            }
        }

        struct AmountRules: Decodable, Sendable {
            let valid: [String]
            let invalid: [String]
        }

        enum CodingKeys: String, CodingKey {
            case valid, invalid
            case amountRules = "amount_rules_from_text"
        }
    }

    /// `bip321_uri_examples.json`.
    struct BIP321Vectors: Decodable, Sendable {
        let valid: [String]
        let invalid: [InvalidURI]
    }

    /// An invalid URI with the reason the BIP gives.
    struct InvalidURI: Decodable, Sendable, CustomTestStringConvertible {
        let uri: String
        let reason: String
        var testDescription: String { reason }
    }
}
