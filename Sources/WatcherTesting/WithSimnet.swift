import WatcherSimnet

extension Simnet {
    /// Starts a simnet on a free loopback port, runs `body` with it, and shuts it down whether `body` returns or
    /// throws.
    ///
    /// ```swift
    /// try await Simnet.with(SimnetConfiguration(seed: 42)) { simnet in
    ///     try await simnet.mine(count: 1)
    /// }
    /// ```
    @discardableResult
    public static func with<T>(
        _ configuration: SimnetConfiguration = SimnetConfiguration(seed: 42),
        _ body: (Simnet) async throws -> T
    ) async throws -> T {
        let simnet = try await Simnet.start(configuration)
        do {
            let result = try await body(simnet)
            await simnet.shutdown()
            return result
        } catch {
            await simnet.shutdown()
            throw error
        }
    }
}
