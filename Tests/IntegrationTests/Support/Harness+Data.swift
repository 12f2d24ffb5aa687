import AsyncHTTPClient
import Foundation
import WatcherSimnet

extension Harness {
    /// Runs `body` with a harness's simnet and HTTP client (``with(_:_:)``) and a data directory for the watcher under
    /// test: a fresh path (``EngineIntegrationTests/dataDirectory()``, not created), removed when `body` returns or
    /// throws.
    static func withData<T: Sendable>(
        _ configuration: SimnetConfiguration,
        _ body: (Simnet, HTTPClient, String) async throws -> T
    ) async throws -> T {
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        return try await with(configuration) { harness in try await body(harness.simnet, harness.client, data) }
    }
}
