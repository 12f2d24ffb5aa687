import WatcherBitcoin
import WatcherJSON

/// The parameters of one JSON-RPC call, positional or named, read with Bitcoin Core's checks and error texts.
struct RPCParams: Sendable {
    /// Each method's parameter names in order (`a|b`: `b` is an accepted alias) and how many are required.
    static let signatures: [String: (required: Int, names: [String])] = [
        "getblockchaininfo": (0, []),
        "getnetworkinfo": (0, []),
        "getblockcount": (0, []),
        "getbestblockhash": (0, []),
        "getblockhash": (1, ["height"]),
        "getblockheader": (1, ["blockhash", "verbose"]),
        "getblock": (1, ["blockhash", "verbosity|verbose"]),
        "getrawtransaction": (1, ["txid", "verbosity|verbose", "blockhash"]),
        "getrawmempool": (0, ["verbose", "mempool_sequence"]),
        "getmempoolentry": (1, ["txid"]),
        "gettxout": (2, ["txid", "n", "include_mempool"]),
        "scantxoutset": (1, ["action", "scanobjects"]),
        "gettxspendingprevout": (1, ["outputs", "options"]),
        "getindexinfo": (0, ["index_name"]),
        "getmempoolinfo": (0, []),
        "getzmqnotifications": (0, []),
        "estimatesmartfee": (1, ["conf_target", "estimate_mode"]),
    ]

    private let values: [JSONValue?]

    /// Reads `params` (absent, an array or an object) for `method`, whose signature must be known.
    init(method: String, params: JSONValue?) throws(RPCError) {
        guard let signature = Self.signatures[method] else { throw .methodNotFound }
        var values: [JSONValue?] = []
        switch params {
        case nil, .null?: break
        case .array(let items)?:
            guard items.count <= signature.names.count else {
                throw RPCError(code: -1, message: Self.usage(method, signature))
            }
            values = items.map { $0 == .null ? nil : $0 }
        case .object(let members)?:
            values = [JSONValue?](repeating: nil, count: signature.names.count)
            for member in members {
                guard
                    let index = signature.names.firstIndex(where: {
                        $0.split(separator: "|").contains(Substring(member.key))
                    })
                else {
                    throw RPCError(code: -8, message: "Unknown named parameter \(member.key)")
                }
                values[index] = member.value == .null ? nil : member.value
            }
        default:
            throw RPCError.invalidRequest("Params must be an array or object")
        }
        for index in 0..<signature.required where index >= values.count || values[index] == nil {
            throw RPCError(code: -1, message: Self.usage(method, signature))
        }
        self.values = values
    }

    private static func usage(_ method: String, _ signature: (required: Int, names: [String])) -> String {
        let names = signature.names.enumerated().map { index, name in
            let first = name.split(separator: "|").first.map(String.init) ?? name
            return index < signature.required ? "\"\(first)\"" : "( \"\(first)\" )"
        }
        return ([method] + names).joined(separator: " ")
    }

    /// The parameter at `index`, `nil` when absent or null.
    func value(_ index: Int) -> JSONValue? {
        values.indices.contains(index) ? values[index] : nil
    }

    func int(_ index: Int) throws(RPCError) -> Int? {
        guard let value = value(index) else { return nil }
        guard case .number(let text) = value else { throw .type(value, expected: "number") }
        guard let number = Int(text) else { throw RPCError(code: -1, message: "JSON integer out of range") }
        return number
    }

    func bool(_ index: Int) throws(RPCError) -> Bool? {
        guard let value = value(index) else { return nil }
        guard case .bool(let flag) = value else { throw .type(value, expected: "bool") }
        return flag
    }

    func string(_ index: Int) throws(RPCError) -> String? {
        guard let value = value(index) else { return nil }
        guard case .string(let text) = value else { throw .type(value, expected: "string") }
        return text
    }

    /// A verbosity given as a number or a boolean (`true` = 1), as Core's `ParseVerbosity` takes it.
    func verbosity(_ index: Int, default fallback: Int) throws(RPCError) -> Int {
        guard let value = value(index) else { return fallback }
        if case .bool(let flag) = value { return flag ? 1 : 0 }
        return try int(index) ?? fallback
    }

    /// A 64-digit hex hash, lower-cased; Core's `ParseHashV` errors otherwise.
    func hash(_ index: Int, name: String) throws(RPCError) -> String {
        guard let text = try string(index) else { throw .type(.null, expected: "string") }
        guard text.utf8.count == 64 else {
            throw .invalidParameter("\(name) must be of length 64 (not \(text.utf8.count), for '\(text)')")
        }
        guard Hex.isHash(text) else { throw .invalidParameter("\(name) must be hexadecimal string (not '\(text)')") }
        return text.lowercased()
    }
}
