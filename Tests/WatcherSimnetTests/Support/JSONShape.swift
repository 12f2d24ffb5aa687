import WatcherCore
import WatcherJSON

/// What the simnet tests read from JSON bodies parsed with WatcherCore's ``JSONValue`` (numbers kept as their text).
extension JSONValue {
    /// The number, when this is one, as a `Double`.
    var number: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The number, when this is one, as an `Int` (through `Double`, as a client reading it as a number would).
    var int: Int? { number.map { Int($0) } }

    var kind: JSONShape.Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The same value with every object's members sorted by key and every number spelled as its `Double` value:
    /// two bodies are equal here when a client reading them sees the same (key order and number spelling aside).
    var normalized: JSONValue {
        switch self {
        case .number(let text): .number(Double(text).map { "\($0)" } ?? text)
        case .array(let items): .array(items.map(\.normalized))
        case .object(let members):
            .object(members.map { Member($0.key, $0.value.normalized) }.sorted { $0.key < $1.key })
        case .null, .bool, .string: self
        }
    }
}

/// The shape of a JSON document: for every key path, the JSON types seen there. Array elements are
/// merged under `[]`, so `txs[].vin[].addresses` is one path however many elements there are.
struct JSONShape: Sendable, Equatable {
    enum Kind: String, Sendable, Hashable, Comparable {
        case null, bool, number, string, array, object

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A path the real body allows to be missing or typed differently in the simnet's body, with why.
    struct Exception: Sendable {
        let path: String
        let reason: String
    }

    private(set) var kinds: [String: Set<Kind>] = [:]

    init(_ node: JSONValue) {
        add(node, path: "$")
    }

    /// The union of several documents' shapes.
    init(merging nodes: [JSONValue]) {
        for node in nodes { add(node, path: "$") }
    }

    private mutating func add(_ node: JSONValue, path: String) {
        kinds[path, default: []].insert(node.kind)
        switch node {
        case .object(let members):
            for member in members { add(member.value, path: "\(path).\(member.key)") }
        case .array(let items):
            for item in items { add(item, path: "\(path)[]") }
        case .null, .bool, .number, .string:
            break
        }
    }

    /// Every way `real` is not covered by `self`: a path missing here, or a JSON type seen there but
    /// not here. Paths equal to, or under, an exception's path are skipped.
    func violations(coveringReal real: JSONShape, except exceptions: [Exception] = []) -> [String] {
        var problems: [String] = []
        for (path, realKinds) in real.kinds.sorted(by: { $0.key < $1.key }) {
            if exceptions.contains(where: {
                path == $0.path || path.hasPrefix($0.path + ".") || path.hasPrefix($0.path + "[")
            }) {
                continue
            }
            guard let simKinds = kinds[path] else {
                problems.append("missing \(path) (\(realKinds.sorted().map(\.rawValue).joined(separator: "|")))")
                continue
            }
            let absent = realKinds.subtracting(simKinds)
            if !absent.isEmpty {
                let realText = realKinds.sorted().map(\.rawValue)
                problems.append("type of \(path): real \(realText), simnet \(simKinds.sorted().map(\.rawValue))")
            }
        }
        return problems
    }
}
