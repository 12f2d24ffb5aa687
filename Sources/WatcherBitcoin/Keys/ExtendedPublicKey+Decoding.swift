extension ExtendedPublicKey {
    /// Parses a Base58Check extended public key of any known prefix.
    ///
    /// Checks, in order: the Base58 alphabet, the checksum, the 78-byte length (a WIF private key is named as
    /// such), the version bytes, the depth-0 rules, then the key field. A private version with a well-formed
    /// private key is refused with ``ExtendedKeyError/privateKey(kind:)`` ("watch-only: give the extended
    /// public key"); a malformed one with the reason it is malformed.
    /// - Parameter text: the key, exactly as given (no trimming).
    /// - Throws: an ``ExtendedKeyError`` naming the first problem.
    public init(_ text: String) throws(ExtendedKeyError) {
        let bytes = try Self.decodeCheck(text)
        guard bytes.count == 78 else {
            if Self.isWIF(bytes) { throw .privateKey(kind: "WIF") }
            throw .wrongLength(bytes.count)
        }
        let versionBytes = Self.readUInt32(bytes, at: 0)
        let depth = bytes[4]
        let parentFingerprint = Self.readUInt32(bytes, at: 5)
        let childNumber = Self.readUInt32(bytes, at: 9)
        let chainCode = Array(bytes[13..<45])
        let key = Array(bytes[45..<78])
        if let version = ExtendedKeyVersion(publicVersion: versionBytes) {
            try self.init(
                version: version,
                depth: depth,
                parentFingerprint: parentFingerprint,
                childNumber: childNumber,
                chainCode: chainCode,
                publicKey: key
            )
            return
        }
        guard let version = ExtendedKeyVersion(privateVersion: versionBytes) else {
            throw .unknownVersion(versionBytes)
        }
        if depth == 0 && parentFingerprint != 0 { throw .zeroDepthWithParentFingerprint(parentFingerprint) }
        if depth == 0 && childNumber != 0 { throw .zeroDepthWithChildNumber(childNumber) }
        if key[0] == 0x02 || key[0] == 0x03 { throw .publicKeyInPrivateVersion }
        guard key[0] == 0x00 else { throw .invalidPrivateKeyPrefix(key[0]) }
        guard Secp256k1.isValidPrivateKey(Array(key[1...])) else { throw .privateKeyOutOfRange }
        throw .privateKey(kind: version.privatePrefix)
    }

    /// Parses an extended public key and checks that it belongs to `network`.
    /// - Throws: as ``init(_:)``, and ``ExtendedKeyError/wrongNetwork(key:expected:)``.
    public init(_ text: String, network: BitcoinAddress.Network) throws(ExtendedKeyError) {
        try self.init(text)
        guard version.isUsable(on: network) else { throw .wrongNetwork(key: version, expected: network) }
    }

    /// The longest Base58 text of 82 bytes (a 78-byte key and its checksum): 112 characters. A longer text
    /// decodes to more bytes, so it is neither an extended key (111 characters) nor a WIF key (51 or 52).
    static let maximumTextLength = 112

    /// Base58-decodes and verifies the 4-byte checksum; returns the payload without it.
    /// - Throws: ``ExtendedKeyError/invalidCharacter(offset:)``, ``ExtendedKeyError/tooLong(_:)`` (before decoding:
    ///   Base58 decoding costs the square of the length, seconds for 64 KB) or ``ExtendedKeyError/badChecksum``.
    static func decodeCheck(_ text: String) throws(ExtendedKeyError) -> [UInt8] {
        var count = 0
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if Base58.digitValue(scalar) == nil { throw .invalidCharacter(offset: offset) }
            count += 1
        }
        if count > maximumTextLength { throw .tooLong(count) }
        guard let bytes = Base58.decode(text), bytes.count >= 4 else { throw .badChecksum }
        let body = Array(bytes.dropLast(4))
        guard Base58.checksum(body) == Array(bytes.suffix(4)) else { throw .badChecksum }
        return body
    }

    /// Whether a Base58Check payload is a WIF private key (version 0x80 or 0xef, 32 bytes, optional 0x01).
    static func isWIF(_ payload: [UInt8]) -> Bool {
        guard let version = payload.first, version == 0x80 || version == 0xef else { return false }
        return payload.count == 33 || (payload.count == 34 && payload[33] == 0x01)
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
