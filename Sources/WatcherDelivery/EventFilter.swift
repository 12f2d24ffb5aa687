import WatcherConfiguration
import WatcherCore

/// A sink's `events` globs: which event types it receives. Events that do not match are skipped (the cursor moves
/// past them).
public struct EventFilter: Sendable, Hashable {
    /// The globs, e.g. `["address.*", "block.reorged"]`; `["*"]` (the default) matches every type.
    public var globs: [String]

    /// Creates a filter.
    public init(_ globs: [String] = ["*"]) { self.globs = globs }

    /// Whether `type` matches any glob.
    public func matches(_ type: String) -> Bool {
        globs.contains { $0 == "*" || EventTypeGlob.matches($0, type) }
    }
}
