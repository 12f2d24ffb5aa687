import WatcherStorage

extension TemporaryDirectory {
    /// Opens (creating) a store in ``storePath``.
    package func openStore() throws -> Store { try Store(path: storePath) }
}
