import WatcherBitcoin
import WatcherCore

/// Maps the reason text of the BIP vectors to the ``AddressError`` case the validator must give.
enum AddressReasonMatching {
    /// Whether `error` is the specific rejection the fixture's `reason` names.
    /// - Returns: `nil` when the reason is not one this table knows (the test then fails).
    static func matches(_ error: AddressError, reason: String) -> Bool? {
        let lower = reason.lowercased()
        switch lower {
        case "hrp character out of range":
            guard case .invalidCharacter(_, _, let offset) = error else { return false }
            return offset == 0
        case "overall max length exceeded":
            guard case .tooLong = error else { return false }
            return true
        case "no separator character":
            guard case .missingSeparator = error else { return false }
            return true
        case "empty hrp":
            guard case .emptyHRP = error else { return false }
            return true
        case "invalid data character", "invalid character in checksum":
            guard case .invalidCharacter(let text, _, let offset) = error,
                let separator = Array(text.unicodeScalars).lastIndex(of: "1")
            else { return false }
            let count = text.unicodeScalars.count
            return lower.hasSuffix("checksum") ? offset >= count - 6 : offset > separator
        case "too short checksum":
            guard case .checksumTooShort = error else { return false }
            return true
        case "checksum calculated with uppercase form of hrp", "invalid checksum":
            guard case .badBech32Checksum = error else { return false }
            return true
        case "invalid checksum (bech32 instead of bech32m)", "invalid checksum (bech32m instead of bech32)":
            guard case .wrongChecksumVariant(_, _, let expected) = error else { return false }
            return expected == (lower.hasSuffix("of bech32m)") ? .bech32m : .bech32)
        case "invalid human-readable part":
            guard case .unknownHRP = error else { return false }
            return true
        case "invalid witness version":
            guard case .invalidWitnessVersion = error else { return false }
            return true
        case "mixed case":
            guard case .mixedCase = error else { return false }
            return true
        case "zero padding of more than 4 bits":
            guard case .excessPadding = error else { return false }
            return true
        case "non-zero padding in 8-to-5 conversion":
            guard case .nonZeroPadding = error else { return false }
            return true
        case "empty data section":
            guard case .emptyData = error else { return false }
            return true
        default:
            return programLengthMatches(error, reason: lower)
        }
    }

    /// The "Invalid program length" family: any length, `(N byte[s])`, or `for witness version 0`.
    private static func programLengthMatches(_ error: AddressError, reason: String) -> Bool? {
        guard reason.hasPrefix("invalid program length") else { return nil }
        guard case .invalidProgramLength(_, let version, let length) = error else { return false }
        if reason.contains("witness version 0") { return version == 0 && length != 20 && length != 32 }
        if reason.contains("(1 byte)") { return length == 1 }
        if reason.contains("(41 bytes)") { return length == 41 }
        return !(2...40).contains(length) || version == 0
    }
}
