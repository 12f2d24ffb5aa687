/// The recursive-descent parser behind ``Descriptor/init(_:network:)``.
///
/// Structural errors (syntax, nesting, key encodings, multipath lengths) are thrown at once. The two
/// watch-only refusals (a private key, a hardened step after an extended key) are kept in
/// ``watchOnlyProblem`` and thrown by ``finish(_:)`` once the whole descriptor has parsed, so that a
/// descriptor that is wrong in structure is reported as such even when it also holds a private key.
struct DescriptorParser {
    /// Where a script expression sits.
    enum Context {
        case top, sh, wsh

        var phrase: String {
            switch self {
            case .top: "at top level"
            case .sh: "inside sh()"
            case .wsh: "inside wsh()"
            }
        }
    }

    /// The rules for one key argument.
    struct KeyRules {
        /// The function the key is an argument of, for messages.
        var function: String
        /// Whether uncompressed keys are refused (segwit and taproot).
        var compressedOnly: Bool
        /// Whether 32-byte x-only keys are accepted (taproot).
        var xOnly: Bool
    }

    /// The network extended keys and addresses must belong to.
    let network: BitcoinAddress.Network
    /// The first watch-only refusal met, thrown by ``finish(_:)``.
    private(set) var watchOnlyProblem: DescriptorError?

    init(network: BitcoinAddress.Network) {
        self.network = network
    }

    /// Records a watch-only refusal unless one is already recorded.
    mutating func recordWatchOnly(_ problem: DescriptorError) {
        if watchOnlyProblem == nil { watchOnlyProblem = problem }
    }

    /// Checks what needs the whole descriptor: tuple lengths, then the deferred watch-only refusal.
    func finish(_ script: DescriptorScript) throws(DescriptorError) {
        var length: Int?
        for key in script.keys {
            guard let count = key.multipath?.count else { continue }
            if let length, length != count { throw .multipathLengthMismatch(length, count) }
            length = count
        }
        if let watchOnlyProblem { throw watchOnlyProblem }
    }

    /// Parses `name(arguments)` in `context`.
    mutating func parseScript(_ text: Substring, in context: Context) throws(DescriptorError) -> DescriptorScript {
        if text.isEmpty { throw .empty }
        guard let open = text.firstIndex(of: "(") else { throw .malformed("expected a script such as wpkh(KEY)") }
        let name = DescriptorError.excerpt(text[..<open])
        guard text.last == ")" else { throw .malformed("\(name)( is not closed by ')' at the end") }
        let arguments = try Self.splitArguments(text[text.index(after: open)..<text.index(before: text.endIndex)])
        switch name {
        case "pk", "pkh":
            try Self.require(name, arguments, count: 1)
            let key = try parseKey(arguments[0], in: rules(name, context))
            return name == "pk" ? .pk(key) : .pkh(key)
        case "wpkh":
            guard context != .wsh else { throw .misplacedFunction(name, context: context.phrase) }
            try Self.require(name, arguments, count: 1)
            return .wpkh(try parseKey(arguments[0], in: KeyRules(function: name, compressedOnly: true, xOnly: false)))
        case "sh":
            guard context == .top else { throw .misplacedFunction(name, context: "except at top level") }
            try Self.require(name, arguments, count: 1)
            try Self.requireScript(name, arguments[0])
            return .sh(try parseScript(arguments[0], in: .sh))
        case "wsh":
            guard context != .wsh else { throw .misplacedFunction(name, context: context.phrase) }
            try Self.require(name, arguments, count: 1)
            try Self.requireScript(name, arguments[0])
            return .wsh(try parseScript(arguments[0], in: .wsh))
        case "multi", "sortedmulti":
            return try parseMulti(name, arguments, in: context)
        case "tr":
            guard context == .top else { throw .misplacedFunction(name, context: context.phrase) }
            if arguments.count > 1 { throw .scriptTreeNotSupported }
            return .tr(try parseKey(arguments[0], in: KeyRules(function: name, compressedOnly: true, xOnly: true)))
        case "addr", "raw":
            guard context == .top else { throw .misplacedFunction(name, context: context.phrase) }
            try Self.require(name, arguments, count: 1)
            return try parseLiteral(name, arguments[0])
        case "combo", "multi_a", "sortedmulti_a", "rawtr", "musig":
            throw .unsupportedFunction(name)
        default:
            throw .unknownFunction(name)
        }
    }

    /// The key rules for `pk()`/`pkh()`: compressed keys only inside `wsh()`.
    private func rules(_ function: String, _ context: Context) -> KeyRules {
        KeyRules(function: function, compressedOnly: context == .wsh, xOnly: false)
    }

    /// Parses `multi(k,KEY,…)` / `sortedmulti(k,KEY,…)`.
    private mutating func parseMulti(
        _ name: String,
        _ arguments: [Substring],
        in context: Context
    ) throws(DescriptorError) -> DescriptorScript {
        guard arguments.count >= 2 else { throw .malformed("\(name)() needs a threshold and at least one key") }
        let thresholdText = arguments[0]
        guard thresholdText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let threshold = Int(thresholdText) else {
            throw .invalidThreshold(DescriptorError.excerpt(thresholdText))
        }
        var keys: [DescriptorKey] = []
        for argument in arguments.dropFirst() {
            keys.append(try parseKey(argument, in: rules(name, context)))
        }
        let limit = context == .top ? 3 : 20
        if keys.count > limit { throw .tooManyKeys(count: keys.count, limit: limit, context: context.phrase) }
        guard (1...keys.count).contains(threshold) else {
            throw .thresholdOutOfRange(threshold: threshold, keys: keys.count)
        }
        if context == .sh {
            let size =
                3
                + keys.reduce(0) { total, key in
                    if case .publicKey(let bytes) = key.material { return total + 1 + bytes.count }
                    return total + 34
                }
            if size > 520 { throw .scriptTooLarge(size) }
        }
        return .multi(threshold: threshold, keys: keys, sorted: name == "sortedmulti")
    }

    /// Parses the argument of `addr()` or `raw()`.
    private func parseLiteral(_ name: String, _ argument: Substring) throws(DescriptorError) -> DescriptorScript {
        if name == "raw" {
            guard let bytes = Hex.decode(argument) else { throw .invalidHex }
            return .raw(bytes)
        }
        do {
            return .addr(try BitcoinAddress(String(argument), network: network))
        } catch {
            throw .invalidAddress(error)
        }
    }

    /// Splits on the commas outside parentheses and braces.
    static func splitArguments(_ text: Substring) throws(DescriptorError) -> [Substring] {
        var arguments: [Substring] = []
        var depth = 0
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "(", "{": depth += 1
            case ")", "}":
                depth -= 1
                if depth < 0 { throw .malformed("unbalanced parentheses") }
            case "," where depth == 0:
                arguments.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        if depth != 0 { throw .malformed("unbalanced parentheses") }
        arguments.append(text[start...])
        return arguments
    }

    private static func require(_ name: String, _ arguments: [Substring], count: Int) throws(DescriptorError) {
        if arguments.count == 1, count == 1, arguments[0].isEmpty {
            throw .argumentCount(function: name, expected: 1, found: 0)
        }
        if arguments.count != count { throw .argumentCount(function: name, expected: count, found: arguments.count) }
    }

    /// A script argument must be a function call, not a key.
    private static func requireScript(_ name: String, _ argument: Substring) throws(DescriptorError) {
        if !argument.contains("(") { throw .expectedScript(function: name) }
    }
}
