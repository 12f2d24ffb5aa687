import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON

/// What a reload applies: the differences of two configs as written, entry by entry (by id).
struct ConfigDiffTests {
    static func document(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    static let base = """
        {"storage": {"path": "./data"},
         "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example"}}],
         "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"]},
                     {"id": "w", "type": "address", "providers": ["bb"], "addresses": ["a"]}],
         "sinks": [{"id": "out", "type": "stdout"}, {"id": "hook", "type": "webhook", "options": {"secret": "s1"}}]}
        """

    @Test func theSameTextDiffersInNothing() throws {
        let diff = ConfigDiff(old: try Self.document(Self.base), new: try Self.document(Self.base))
        #expect(diff.isEmpty && diff.summary == "unchanged")
    }

    @Test func entriesAreMatchedByIDWhateverTheirOrder() throws {
        let changed = Self.base
            .replacingOccurrences(of: #""addresses": ["a"]"#, with: #""addresses": ["a", "b"]"#)
            .replacingOccurrences(of: #"{"id": "out", "type": "stdout"}, "#, with: "")
            .replacingOccurrences(of: #""secret": "s1""#, with: #""secret": "s2""#)
            .replacingOccurrences(
                of: #""watches": ["#,
                with: #""watches": [{"id": "new", "type": "blocks", "providers": ["bb"]}, "#
            )
        let diff = ConfigDiff(old: try Self.document(Self.base), new: try Self.document(changed))
        #expect(!diff.storage && diff.providers.isEmpty)
        #expect(diff.watches == .init(added: ["new"], removed: [], changed: ["w"]))
        // A literal secret's change counts, though `watcher check` shows it masked.
        #expect(diff.sinks == .init(added: [], removed: ["out"], changed: ["hook"]))
        #expect(diff.summary == "watches: +new ~w; sinks: ~hook -out")
    }

    @Test func storageAndProviderChangesAreNamed() throws {
        let changed = Self.base
            .replacingOccurrences(of: #""path": "./data""#, with: #""path": "./other""#)
            .replacingOccurrences(of: "https://bb.example", with: "https://bb2.example")
        let diff = ConfigDiff(old: try Self.document(Self.base), new: try Self.document(changed))
        #expect(diff.storage && diff.providers.changed == ["bb"] && diff.watches.isEmpty && diff.sinks.isEmpty)
        #expect(diff.summary == "storage changed (needs a restart); providers: ~bb")
    }
}
