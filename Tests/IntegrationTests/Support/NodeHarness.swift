import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// What the node suites share: a quiet simnet with its Bitcoin Core face, a config over it, and its credentials.
enum NodeHarness {
    static var quiet: SimnetConfiguration {
        var configuration = EngineHarness.quiet
        configuration.rpcPassword = password
        return configuration
    }

    static func config(_ simnet: Simnet, _ data: String, watches: String) throws -> WatcherConfig {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "node", "type": "bitcoind", "chain": "btc",
                            "options": {"url": "\(simnet.baseURL)", "user": "watcher", "password": "${NODE_PASSWORD}",
                                        "timeout": "2s"}}],
             "watches": \(watches),
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: ["NODE_PASSWORD": password])
            .load(bytes: Array(json.utf8))
    }

    /// The node's password: distinctive, so a leak anywhere is found by a plain search.
    static let password = "s3cret-node-pw-7d1f"

    /// The password is in no event and no file of the data directory.
    static func expectNoSecret(_ store: Store, _ data: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let bodies = try store.read { try $0.events() }.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(!bodies.contains { $0.contains(password) }, "the password in an event", sourceLocation: sourceLocation)
        let files = FileManager.default.enumerator(atPath: data)?.compactMap { $0 as? String } ?? []
        let needle = Data(password.utf8)
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: data + "/" + file) else { continue }
            #expect(bytes.range(of: needle) == nil, "the password in \(file)", sourceLocation: sourceLocation)
        }
    }
}
