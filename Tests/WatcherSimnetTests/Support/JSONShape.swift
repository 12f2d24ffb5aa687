/// A parsed JSON value that keeps the JSON type of every node (bool vs number vs string).
indirect enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    /// Parses UTF-8 JSON (RFC 8259); throws on anything else, including trailing garbage.
    static func parse(_ bytes: some Sequence<UInt8>) throws -> JSONNode {
        var parser = JSONNodeParser(bytes: Array(bytes))
        return try parser.parseDocument()
    }

    /// The member `key` of an object.
    subscript(key: String) -> JSONNode? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array.
    subscript(index: Int) -> JSONNode? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var int: Int? { number.map { Int($0) } }

    var array: [JSONNode]? {
        if case .array(let items) = self { return items }
        return nil
    }

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

    init(_ node: JSONNode) {
        add(node, path: "$")
    }

    /// The union of several documents' shapes.
    init(merging nodes: [JSONNode]) {
        for node in nodes { add(node, path: "$") }
    }

    private mutating func add(_ node: JSONNode, path: String) {
        kinds[path, default: []].insert(node.kind)
        switch node {
        case .object(let members):
            for (key, value) in members { add(value, path: "\(path).\(key)") }
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
