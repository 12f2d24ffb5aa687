/// Why a string is not a usable output descriptor (BIP380-386, BIP389), or a derivation from one failed.
///
/// Messages name the offending part: a function, a path step, a fingerprint, the expected checksum. They
/// never repeat key material: keys are named by their kind, and private keys are refused with
/// ``privateKey(kind:)``, whose message starts "watch-only: give the extended public key".
public enum DescriptorError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The descriptor is empty.
    case empty
    /// A character outside the 96 that BIP380's checksum covers. `offset` counts characters from 0.
    case invalidCharacter(Character, offset: Int)
    /// More than one `#`.
    case multipleChecksumSeparators
    /// A `#` with nothing after it.
    case missingChecksum
    /// The checksum is not 8 characters long.
    case checksumLength(Int)
    /// The checksum does not match the descriptor.
    case checksumMismatch(expected: String, found: String)
    /// The text does not have the shape `name(arguments)`; carries what was expected.
    case malformed(String)
    /// A function this parser does not know.
    case unknownFunction(String)
    /// A known descriptor function this watcher does not support (`combo`, `multi_a`, `rawtr`, …).
    case unsupportedFunction(String)
    /// A function used where it is not allowed, e.g. `wpkh()` inside `wsh()`. `context` says where.
    case misplacedFunction(String, context: String)
    /// A script where a key was expected, e.g. `pk(pk(…))`.
    case expectedKey(function: String)
    /// A key where a script was expected, e.g. `sh(03…)`.
    case expectedScript(function: String)
    /// A function got the wrong number of arguments.
    case argumentCount(function: String, expected: Int, found: Int)
    /// `tr(KEY, TREE)`: script trees are not supported yet.
    case scriptTreeNotSupported
    /// The multisig threshold is not a decimal number.
    case invalidThreshold(String)
    /// The multisig threshold is not between 1 and the number of keys.
    case thresholdOutOfRange(threshold: Int, keys: Int)
    /// Too many keys for a multisig in this place.
    case tooManyKeys(count: Int, limit: Int, context: String)
    /// The redeem script of `sh()` would be larger than 520 bytes.
    case scriptTooLarge(Int)
    /// `raw()` holds something that is not hex.
    case invalidHex
    /// `addr()` holds an invalid address, or one for another network.
    case invalidAddress(AddressError)
    /// A `]` without a `[` before it.
    case missingOriginStart
    /// A `[` without a `]` after it.
    case unterminatedOrigin
    /// More than one key origin, or a `]` after the origin.
    case multipleOrigins
    /// The fingerprint in a key origin is not 8 hex digits. Carries it.
    case invalidFingerprint(String)
    /// A key origin with nothing after it.
    case missingKey
    /// An empty path step (`//`, or a trailing `/`).
    case emptyPathElement
    /// A path step that is not a decimal number with an optional `h` or `'` (e.g. `1aa`, `+1`, `0H`).
    case invalidPathElement(String)
    /// A path step of 2^31 or more.
    case pathElementOutOfRange(String)
    /// `*` inside a key origin.
    case wildcardInOrigin
    /// `*` that is not the last step.
    case wildcardNotLast
    /// `<a;b>` inside a key origin.
    case multipathInOrigin
    /// More than one `<…>` in one key.
    case multipleMultipath
    /// A malformed `<…>` tuple; carries the reason.
    case invalidMultipath(String)
    /// Keys with `<…>` tuples of different lengths in one descriptor.
    case multipathLengthMismatch(Int, Int)
    /// Derivation steps after a key that is not an extended key.
    case derivationAfterSingleKey
    /// An x-only (32-byte) key outside `tr()`.
    case xOnlyKeyOutsideTaproot
    /// An uncompressed key where segwit or taproot requires compressed keys. Carries the function.
    case uncompressedKey(function: String)
    /// A hex public key that libsecp256k1 refuses.
    case publicKey(Secp256k1Error)
    /// An extended key that does not parse, or belongs to another network.
    case extendedKey(ExtendedKeyError)
    /// A key that is neither hex nor Base58Check.
    case unrecognizedKey
    /// A private key (extended or WIF): a watcher needs public keys only. Carries the kind, never the key.
    case privateKey(kind: String)
    /// A hardened step after an extended public key (`/1h/*`, `/*h`), which CKDpub cannot derive.
    case hardenedStep(String)
    /// The derivation index is 2^31 or more.
    case indexOutOfRange(UInt32)
    /// The branch number is not below the number of multipath branches.
    case branchOutOfRange(Int, count: Int)
    /// A derivation step failed (BIP32 says to skip the index).
    case derivation(ExtendedKeyError)

    /// User text fit for a message: itself when at most 16 characters, else only its length, so that a key
    /// pasted in the wrong place is never repeated (not even its first characters).
    static func excerpt(_ text: some StringProtocol) -> String {
        text.count <= 16 ? String(text) : "\(text.count)-character text"
    }

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .empty: "the descriptor is empty"
        case .invalidCharacter(let character, let offset):
            "invalid character \(character.debugDescription) at offset \(offset) in the descriptor"
        case .multipleChecksumSeparators: "more than one '#' in the descriptor"
        case .missingChecksum: "'#' is not followed by a checksum"
        case .checksumLength(let count): "the checksum has \(count) characters, not 8"
        case .checksumMismatch(let expected, let found):
            "bad descriptor checksum #\(found): expected #\(expected)"
        case .malformed(let expectation): "malformed descriptor: \(expectation)"
        case .unknownFunction(let name): "unknown descriptor function \(name.debugDescription)"
        case .unsupportedFunction(let name): "\(name)() descriptors are not supported"
        case .misplacedFunction(let name, let context): "\(name)() is not allowed \(context)"
        case .expectedKey(let function): "\(function)() takes a key expression, not a script"
        case .expectedScript(let function): "\(function)() takes a script expression, not a key"
        case .argumentCount(let function, let expected, let found):
            "\(function)() takes \(expected) argument\(expected == 1 ? "" : "s"), not \(found)"
        case .scriptTreeNotSupported: "tr() with a script tree is not supported"
        case .invalidThreshold(let text): "multisig threshold \(text.debugDescription) is not a number"
        case .thresholdOutOfRange(let threshold, let keys):
            "multisig threshold \(threshold) is not between 1 and the \(keys) keys"
        case .tooManyKeys(let count, let limit, let context):
            "\(count) keys in a multisig \(context), at most \(limit)"
        case .scriptTooLarge(let size): "the sh() redeem script would be \(size) bytes, at most 520"
        case .invalidHex: "raw() takes hex"
        case .invalidAddress(let error): "addr(): invalid address: \(error.reason)"
        case .missingOriginStart: "key origin start '[' missing before ']'"
        case .unterminatedOrigin: "key origin '[' is not closed by ']'"
        case .multipleOrigins: "more than one key origin for one key"
        case .invalidFingerprint(let text): "key origin fingerprint \(text.debugDescription) is not 8 hex digits"
        case .missingKey: "key origin without a key"
        case .emptyPathElement: "empty step in a key path"
        case .invalidPathElement(let text):
            "key path step \(text.debugDescription) is not a number below 2^31 with optional h or '"
        case .pathElementOutOfRange(let text): "key path step \(text) is out of range (at most 2147483647)"
        case .wildcardInOrigin: "'*' is not allowed in a key origin"
        case .wildcardNotLast: "'*' must be the last step of a key path"
        case .multipathInOrigin: "a multipath <…> tuple is not allowed in a key origin"
        case .multipleMultipath: "more than one multipath <…> tuple in one key"
        case .invalidMultipath(let reason): "invalid multipath tuple: \(reason)"
        case .multipathLengthMismatch(let first, let second):
            "multipath tuples of different lengths (\(first) and \(second)) in one descriptor"
        case .derivationAfterSingleKey: "derivation steps need an extended key (xpub/tpub)"
        case .xOnlyKeyOutsideTaproot: "32-byte x-only keys are only allowed in tr()"
        case .uncompressedKey(let function): "uncompressed keys are not allowed in \(function)()"
        case .publicKey(let error): "invalid public key: \(error.description)"
        case .extendedKey(let error): error.description
        case .unrecognizedKey: "not a key: expected hex or an extended public key (xpub/tpub)"
        case .privateKey(let kind): "\(ExtendedKeyError.watchOnlyMessage) (found a private key: \(kind))"
        case .hardenedStep(let step):
            "hardened step \(step) after the extended public key: CKDpub cannot derive it "
                + "(\(ExtendedKeyError.watchOnlyMessage) at that depth, with the hardened steps in the key origin)"
        case .indexOutOfRange(let index): "derivation index \(index) is out of range (at most 2147483647)"
        case .branchOutOfRange(let branch, let count): "branch \(branch) does not exist (\(count) branches)"
        case .derivation(let error): error.description
        }
    }
}
