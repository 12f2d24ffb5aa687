import AsyncHTTPClient
import Foundation
import Logging
import Testing
import WatcherConfiguration
import WatcherHTTP
import WatcherPlugins
import WatcherStorage
import WatcherTestSupport

@testable import WatcherApp

/// No printing or reflection of what the daemon holds shows a secret: the loaded config and the runtime built from
/// it (its services, with the providers and sinks inside), through `"\(value)"`, `String(reflecting:)` and `dump`,
/// which is what a log line or a `ServiceGroup` name is made of. ``SecretsInOutputTests`` checks a real daemon's
/// output; this checks every value, whether or not something logs it today.
struct SecretReflectionTests {
    @Test func theConfigAndTheRuntimePrintNoSecret() async throws {
        let directory = try TemporaryDirectory("reflection")
        defer { directory.remove() }
        let text = SecretsHarness.config(
            directory.storePath,
            simnet: "http://127.0.0.1:9",
            hook: "http://127.0.0.1:9/hook",
            deadPort: 9,
            followed: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            every: "1s"
        )
        let config = try ConfigLoader(registry: .builtIn, environment: SecretsHarness.environment)
            .load(bytes: Array(text.utf8))
        let store = try Store(path: directory.storePath)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .untraced)
        let runtime = try WatcherRuntime(config: config, store: store, http: client, logger: .init(label: "test"))
        var shown = [String(describing: config), String(reflecting: config)]
        var dumped = ""
        dump(config, to: &dumped)
        for service in runtime.services {
            shown += [String(describing: service), String(reflecting: service)]
            dump(service, to: &dumped)
        }
        shown.append(dumped)
        try await client.shutdown()
        await store.close()
        for needle in SecretsHarness.needles {
            let lines = shown.joined(separator: "\n").split(separator: "\n").filter { $0.contains(needle) }
            #expect(lines.isEmpty, "\(needle): \(lines.prefix(3).map { $0.prefix(300) })")
        }
    }
}
