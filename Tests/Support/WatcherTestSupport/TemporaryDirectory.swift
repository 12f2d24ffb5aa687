import Foundation

/// A fresh directory under the system's temporary directory, for one test; ``remove()`` deletes it.
package final class TemporaryDirectory: Sendable {
    /// Its path.
    package let path: String

    /// Creates `…/watcher-<prefix>-<uuid>`.
    package init(_ prefix: String = "test") throws {
        path = NSTemporaryDirectory() + "watcher-\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Its URL.
    package var url: URL { URL(fileURLWithPath: path) }

    /// The path of `name` inside it.
    package func file(_ name: String) -> String { path + "/" + name }

    /// The path of a store (the `data` subdirectory).
    package var storePath: String { path + "/data" }

    /// Writes `text` to `name` inside it; returns the path.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Deletes it and everything in it.
    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
