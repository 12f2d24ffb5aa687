import WatcherCore
import WatcherJSON

/// What changed between two configs as written, section by section and entry by entry (entries matched by `id`):
/// what a reload (`SIGHUP`) applies. An entry counts as changed when its text differs in any way, so a change of a
/// literal secret counts; `${NAME}` references resolve against the daemon's own environment, which does not change
/// while it runs. Pure: two documents in, the differences out.
public struct ConfigDiff: Sendable, Equatable {
    /// The differences in one section.
    public struct Changes: Sendable, Equatable {
        /// Ids only in the new config.
        public var added: [String] = []
        /// Ids only in the old config.
        public var removed: [String] = []
        /// Ids in both whose entries differ.
        public var changed: [String] = []

        /// Creates a set of changes.
        public init(added: [String] = [], removed: [String] = [], changed: [String] = []) {
            self.added = added
            self.removed = removed
            self.changed = changed
        }

        /// Nothing differs.
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

        /// `+new ~changed -removed`.
        public var summary: String {
            (added.map { "+\($0)" } + changed.map { "~\($0)" } + removed.map { "-\($0)" }).joined(separator: " ")
        }
    }

    /// The `storage` section differs (applied only by a restart).
    public var storage: Bool
    /// The `providers` section.
    public var providers: Changes
    /// The `watches` section.
    public var watches: Changes
    /// The `sinks` section.
    public var sinks: Changes

    /// Compares two documents as written.
    public init(old: JSONValue, new: JSONValue) {
        storage = Self.text(old["storage"]) != Self.text(new["storage"])
        providers = Self.compare(old["providers"], new["providers"])
        watches = Self.compare(old["watches"], new["watches"])
        sinks = Self.compare(old["sinks"], new["sinks"])
    }

    /// Nothing differs.
    public var isEmpty: Bool { !storage && providers.isEmpty && watches.isEmpty && sinks.isEmpty }

    /// `providers: ~bb; watches: +w2` for the log; `unchanged` when nothing differs.
    public var summary: String {
        var parts: [String] = []
        if storage { parts.append("storage changed (needs a restart)") }
        for (name, changes) in [("providers", providers), ("watches", watches), ("sinks", sinks)] where !changes.isEmpty
        {
            parts.append("\(name): \(changes.summary)")
        }
        return parts.isEmpty ? "unchanged" : parts.joined(separator: "; ")
    }

    static func text(_ value: JSONValue?) -> String { value?.serialized() ?? "" }

    /// Entries of two arrays of objects, matched by their `id`.
    static func compare(_ old: JSONValue?, _ new: JSONValue?) -> Changes {
        let before = entries(old)
        let after = entries(new)
        var changes = Changes()
        for (id, text) in after {
            guard let previous = before.first(where: { $0.id == id }) else {
                changes.added.append(id)
                continue
            }
            if previous.text != text { changes.changed.append(id) }
        }
        changes.removed = before.map(\.id).filter { id in !after.contains { $0.id == id } }
        return changes
    }

    static func entries(_ value: JSONValue?) -> [(id: String, text: String)] {
        guard case .array(let items) = value else { return [] }
        return items.enumerated().map { index, item in (item["id"]?.stringValue ?? "#\(index)", item.serialized()) }
    }
}
