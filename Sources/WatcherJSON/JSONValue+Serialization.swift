extension JSONValue {
    /// Serializes to JSON text, keeping key order. `pretty` indents by two spaces.
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        let newline = pretty ? "\n" : ""
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let closePad = pretty ? String(repeating: "  ", count: indent) : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): out += Self.quoted(s)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[" + newline
            for (i, item) in items.enumerated() {
                out += pad
                item.write(to: &out, pretty: pretty, indent: indent + 1)
                out += (i < items.count - 1 ? "," : "") + newline
            }
            out += closePad + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{" + newline
            for (i, member) in members.enumerated() {
                out += pad + Self.quoted(member.key) + (pretty ? ": " : ":")
                member.value.write(to: &out, pretty: pretty, indent: indent + 1)
                out += (i < members.count - 1 ? "," : "") + newline
            }
            out += closePad + "}"
        }
    }

    /// A JSON string literal for `text`. Most strings (ids, addresses, hashes, amounts) need no escape: they are
    /// copied whole, not scalar by scalar.
    public static func quoted(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + text + "\"" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
