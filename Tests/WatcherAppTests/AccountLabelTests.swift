import Testing
import WatcherTestSupport
import WatcherTesting

/// Labels have a documented limit (100 characters): `watcher accounts add` and the API refuse a longer one before
/// asking any provider, and store nothing.
struct AccountLabelTests {
    @Test func aLabelPastTheLimitIsRefusedOffline() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // The provider's URL answers nothing: the label is refused before any provider is asked.
        let config = try dir.write(
            "watcher.json",
            ConfigText.config(
                providers: #"[{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}]"#
            )
        )
        let address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
        let long = String(repeating: "é", count: 101)
        let result = try await WatcherProcess.run([
            "accounts", "add", address, "--label", long, "--config", config,
        ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("the label has 101 characters; the limit is 100"), "\(result.stderr)")
        let uri = try await WatcherProcess.run([
            "accounts", "add", "bitcoin:\(address)?label=\(String(repeating: "a", count: 150))", "--config", config,
        ])
        #expect(uri.stderr.contains("the label has 150 characters; the limit is 100"), "\(uri.stderr)")
    }
}
