import WatcherHTTP

/// A path into a JSON document, as `json-price` feeds are configured: dot-separated keys, `[n]` array indexes
/// and `*` for the first member of an object (Kraken names its result after its own pair code).
///
/// `data.amount`, `bitcoin.usd`, `result.*.c[0]`, `bpi.USD.rate_float`. Keys match exactly: `bitcoin.usd`
/// never matches `usd_24h_change`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Step: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// The first member of an object.
        case firstMember
        /// An array element.
        case index(Int)
    }

    /// The steps, in order.
    public let steps: [Step]
    /// The text it was parsed from.
    public let description: String

    /// Parses a path; `nil` when it is empty or malformed (an empty key, an unclosed or non-numeric index).
    public init?(_ text: String) {
        var steps: [Step] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            let open = part.firstIndex(of: "[") ?? part.endIndex
            let key = part[..<open]
            guard !key.isEmpty else { return nil }
            steps.append(key == "*" ? .firstMember : .key(String(key)))
            var rest = part[open...]
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0
                else { return nil }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
        }
        guard !steps.isEmpty else { return nil }
        self.steps = steps
        self.description = text
    }

    /// The value at this path, or `nil` when any step is missing or `null`.
    public func resolve(in root: ProviderHTTP.JSONNode) -> ProviderHTTP.JSONNode? {
        var node = root
        for step in steps {
            switch step {
            case .key(let key):
                guard let next = node[key] else { return nil }
                node = next
            case .firstMember:
                guard let first = try? node.members().first?.node, !first.isNull else { return nil }
                node = first
            case .index(let index):
                guard let items = try? node.array(), items.indices.contains(index), !items[index].isNull else {
                    return nil
                }
                node = items[index]
            }
        }
        return node
    }
}
