import WatcherTesting

extension FixtureServer {
    /// Starts a server answering `answers` (as ``with(_:notFound:_:)``), builds the adapter under test on it with
    /// `adapter`, and runs `body` with that adapter:
    ///
    /// ```swift
    /// let tip = try await FixtureServer.with(answers, adapter: Self.blockbook) { try await $0.tip() }
    /// ```
    @discardableResult
    static func with<Adapter, T>(
        _ answers: [String: Answer],
        adapter: (FixtureServer) throws -> Adapter,
        _ body: (Adapter) async throws -> T
    ) async throws -> T {
        try await with(answers) { server in try await body(try adapter(server)) }
    }
}
