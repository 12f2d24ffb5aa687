import Foundation
import Testing
import WatcherApp
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherTestSupport

/// What `watcher check` prints as the resolved config is itself a config that passes `check`, and resolving it
/// again changes nothing: only the fields of each watch's own type are shown, defaults included.
///
/// Secrets are masked in the resolved text: a `${NAME}` reference is shown as written and resolves again from the
/// same environment (set below), so the configs here use references, never literal secrets (those show as
/// `********`, which is not a valid secret).
struct ResolvedConfigTests {
    static let environment = ["WATCHER_WEBHOOK_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]

    static var examples: [String] {
        let directory = CLITests.examplesDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static let minimalWatches = [
        "blocks": #"{"id": "w", "type": "blocks", "providers": ["bb"]}"#,
        "address":
            #"{"id": "w", "type": "address", "providers": ["bb"], "addresses": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"]}"#,
        "tx": #"{"id": "w", "type": "tx", "providers": ["bb"], "txid": "\#(String(repeating: "0f", count: 32))"}"#,
        "price": #"{"id": "w", "type": "price", "providers": ["cb"]}"#,
        // BIP84's account key (bitcoin/bips bip-0084.mediawiki).
        "wallet":
            #"{"id": "w", "type": "wallet", "providers": ["bb"], "xpub": "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"}"#,
    ]

    /// Loads `text`, then loads its resolved form; returns both resolved documents.
    static func roundTrip(_ text: String) throws -> (first: JSONValue, second: JSONValue) {
        let loader = ConfigLoader(registry: .builtIn, environment: environment)
        let first = try loader.load(bytes: Array(text.utf8)).resolved
        let second = try loader.load(bytes: Array(first.serialized(pretty: true).utf8)).resolved
        return (first, second)
    }

    @Test func thereAreExamples() {
        #expect(Self.examples.contains("watcher.json"))
        #expect(Self.examples.contains("webhook.json"))
    }

    @Test(arguments: examples)
    func exampleResolvesToAConfigThatLoads(_ name: String) throws {
        let url = CLITests.examplesDirectory.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        let (first, second) = try Self.roundTrip(text)
        #expect(first == second)
    }

    @Test(arguments: ["blocks", "address", "wallet", "tx", "price"])
    func minimalWatchResolvesToAConfigThatLoads(_ kind: String) throws {
        let text = ConfigText.config(watches: "[\(Self.minimalWatches[kind] ?? "")]")
        let (first, second) = try Self.roundTrip(text)
        #expect(first == second)
        // Only the watch's own fields (and the common ones) are shown.
        let keys = Set(first["watches"]?[0]?.members?.map(\.key) ?? [])
        let own: [String: Set<String>] = [
            "blocks": ["maxBackfill", "chain"],
            "address": ["addresses", "confirmations", "chain", "reorgSafety", "strategy"],
            "tx": ["txid", "confirmations", "chain", "reorgSafety"],
            "price": ["currency", "emitUpdates", "median"],
            "wallet": ["xpub", "gap", "confirmations", "chain", "reorgSafety", "strategy"],
        ]
        #expect(keys == Set(["id", "type", "providers", "every"]).union(own[kind] ?? []))
    }
}
