extension DescriptorParser {
    /// The steps after a key, split at the multipath tuple.
    struct Steps {
        var path: [UInt32] = []
        var multipath: [UInt32]?
        var after: [UInt32] = []
        var isRanged = false
        /// The first hardened step written, as text (`1h`, `*h`), if any.
        var firstHardened: String?
    }

    /// Parses a KEY expression under `rules`.
    ///
    /// Syntax and encodings are checked first; then a private key or a hardened step after an extended key is
    /// recorded with ``recordWatchOnly(_:)`` and a placeholder key returned (never seen by callers: ``finish(_:)``
    /// throws the recorded problem).
    mutating func parseKey(_ text: Substring, in rules: KeyRules) throws(DescriptorError) -> DescriptorKey {
        if text.contains("(") { throw .expectedKey(function: rules.function) }
        var rest = text
        var origin: KeyOrigin?
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { throw .unterminatedOrigin }
            origin = try KeyOrigin.parse(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            if rest.contains("[") || rest.contains("]") { throw .multipleOrigins }
        } else if rest.contains("]") {
            throw .missingOriginStart
        }
        if rest.isEmpty { throw .missingKey }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        let steps = try Self.parseSteps(parts.dropFirst())
        let keyText = parts[0]
        let hasSteps = parts.count > 1
        if let material = try decodeHex(keyText, rules) {
            if hasSteps { throw .derivationAfterSingleKey }
            return DescriptorKey(
                origin: origin,
                material: material,
                path: [],
                multipath: nil,
                pathAfterMultipath: [],
                isRanged: false,
                branchKeys: []
            )
        }
        let extended: ExtendedPublicKey
        do {
            extended = try ExtendedPublicKey(String(keyText), network: network)
        } catch .privateKey(let kind) {
            if kind == "WIF" {
                if rules.compressedOnly && Self.isUncompressedWIF(keyText) {
                    throw .uncompressedKey(function: rules.function)
                }
                if hasSteps { throw .derivationAfterSingleKey }
            }
            recordWatchOnly(.privateKey(kind: kind))
            return Self.placeholder(steps)
        } catch .wrongLength, .badChecksum, .invalidCharacter, .tooLong {
            throw .unrecognizedKey
        } catch {
            throw .extendedKey(error)
        }
        if let hardened = steps.firstHardened {
            recordWatchOnly(.hardenedStep(hardened))
            return Self.placeholder(steps)
        }
        return try DescriptorKey(
            origin: origin,
            extendedKey: extended,
            path: steps.path,
            multipath: steps.multipath,
            pathAfterMultipath: steps.after,
            isRanged: steps.isRanged
        )
    }

    /// Decodes a hex key, or returns `nil` when the text is not a hex key's length.
    private func decodeHex(_ text: Substring, _ rules: KeyRules) throws(DescriptorError) -> DescriptorKey.Material? {
        guard [64, 66, 130].contains(text.utf8.count), let bytes = Hex.decode(text) else { return nil }
        if bytes.count == 32 {
            guard rules.xOnly else { throw .xOnlyKeyOutsideTaproot }
            guard Secp256k1.isValidXOnlyPublicKey(bytes) else { throw .publicKey(.notOnCurve) }
            return .xOnly(bytes)
        }
        do {
            _ = try Secp256k1.compressedPublicKey(bytes)
        } catch {
            throw .publicKey(error)
        }
        if bytes.count == 65 && rules.compressedOnly { throw .uncompressedKey(function: rules.function) }
        return .publicKey(bytes)
    }

    /// Parses the steps after the key: numbers, at most one `<a;b;…>`, and a final `*`.
    static func parseSteps(_ parts: ArraySlice<Substring>) throws(DescriptorError) -> Steps {
        var steps = Steps()
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            if part.hasPrefix("*") {
                guard isLast else { throw .wildcardNotLast }
                guard part == "*" || part == "*h" || part == "*'" else {
                    throw .invalidPathElement(DescriptorError.excerpt(part))
                }
                steps.isRanged = true
                if part != "*" && steps.firstHardened == nil { steps.firstHardened = String(part) }
            } else if part.hasPrefix("<") {
                guard steps.multipath == nil else { throw .multipleMultipath }
                guard part.hasSuffix(">"), part.count >= 2 else { throw .invalidMultipath("missing '>'") }
                steps.multipath = try parseTuple(part.dropFirst().dropLast(), &steps)
            } else if part.contains(">") || part.contains(";") {
                throw .invalidMultipath("missing '<'")
            } else {
                let index = try DerivationPath.parseStep(part)
                if index >= Secp256k1.hardenedOffset && steps.firstHardened == nil {
                    steps.firstHardened = String(part)
                }
                if steps.multipath == nil { steps.path.append(index) } else { steps.after.append(index) }
            }
        }
        return steps
    }

    /// Parses the inside of `<…>`: two or more distinct steps separated by `;`.
    private static func parseTuple(_ text: Substring, _ steps: inout Steps) throws(DescriptorError) -> [UInt32] {
        if text.isEmpty { throw .invalidMultipath("it is empty") }
        var indices: [UInt32] = []
        for element in text.split(separator: ";", omittingEmptySubsequences: false) {
            if element.isEmpty { throw .invalidMultipath("an index is missing") }
            let index = try DerivationPath.parseStep(element)
            if indices.contains(index) { throw .invalidMultipath("index \(element) appears twice") }
            if index >= Secp256k1.hardenedOffset && steps.firstHardened == nil { steps.firstHardened = String(element) }
            indices.append(index)
        }
        if indices.count < 2 { throw .invalidMultipath("it needs at least two indices") }
        return indices
    }

    /// Whether a WIF string encodes an uncompressed key (no 0x01 suffix).
    private static func isUncompressedWIF(_ text: Substring) -> Bool {
        guard let payload = try? ExtendedPublicKey.decodeCheck(String(text)) else { return false }
        return payload.count == 33
    }

    /// A stand-in for a key the watch-only check refused; the parse fails in ``finish(_:)``.
    private static func placeholder(_ steps: Steps) -> DescriptorKey {
        DescriptorKey(
            origin: nil,
            material: .publicKey([]),
            path: steps.path,
            multipath: steps.multipath,
            pathAfterMultipath: steps.after,
            isRanged: steps.isRanged,
            branchKeys: []
        )
    }
}
