import Foundation

/// The real provider bodies recorded in `Tests/ProviderTests/Fixtures/<family>/`, each with its row in that folder's
/// `SOURCES.md`: one copy, in this target's bundle, for every test target that reads them (the adapters' decoder
/// tests and the simnet's shape and error-body tests). A new family folder is one more `.copy` in `Package.swift`.
public enum RecordedFixture {
    /// The fixture's file is not in the bundle.
    public struct Missing: Error, CustomStringConvertible {
        /// The path asked for, e.g. `blockbook/tx.json`.
        public let path: String
        public var description: String { "no recorded fixture \(path) in the WatcherFixtures bundle" }
    }

    /// The bytes of the fixture at `path` below `Tests/ProviderTests/Fixtures/`, e.g. `blockbook/tx.json`.
    public static func bytes(_ path: String) throws -> [UInt8] {
        guard let root = Bundle.module.resourceURL else { throw Missing(path: path) }
        let url = root.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: path) }
        return Array(try Data(contentsOf: url))
    }
}
