import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Testing
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherRules
import WatcherSimnet
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

@testable import WatcherApp

/// What the suites that run the real watcher process share: waiting for its store and its status server, reading
/// its sinks' files and its metrics.
enum DaemonHarness {
    static func fileIDsOrEmpty(_ data: String) -> [String] { (try? fileIDs(data)) ?? [] }

    /// The webhooks' signing secret (``KillTests`` signs with it too).
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// Opens the store read-only once the child has created it.
    static func waitForStore(_ data: String) async throws -> Store {
        try await eventuallyValue("the store in \(data)") { try? Store(path: data, options: .init(readOnly: true)) }
    }

    /// Runs `watcher <arguments>` to completion and returns its status and output.
    static func watcher(_ arguments: [String]) async throws -> WatcherProcess.Result {
        try await WatcherProcess.run(arguments)
    }

    static func get(_ client: HTTPClient, _ url: String, method: HTTPMethod = .GET) async throws -> (
        status: Int, body: String
    ) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        let response = try await client.execute(request, timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    /// Parses Prometheus text with the reference Python parser (`prometheus_client`, installed by `.ci/run`).
    static func prometheusParse(_ text: String) async throws -> (status: Int32, output: String) {
        let script = """
            import sys
            from prometheus_client.parser import text_string_to_metric_families
            names = sorted(f.name for f in text_string_to_metric_families(sys.stdin.read()))
            print("\\n".join(names))
            """
        let python = ProcessInfo.processInfo.environment["WATCHER_PYTHON"] ?? "/usr/bin/python3"
        let outcome = try await ProcessRunner.run([python, "-c", script], input: text)
        return (outcome.status, outcome.output)
    }

    /// The value of the first sample whose line starts with `prefix`.
    static func value(_ text: String, _ prefix: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { $0.split(separator: " ").last }
            .flatMap { Double($0) }
    }

    static func funded(_ daemon: WebDaemon) async throws -> String {
        try #require(
            await daemon.simnet.addresses().first {
                $0.funded && $0.address != daemon.followed && $0.confirmedTxCount > 0
            }?.address
        )
    }

    static func fileIDs(_ data: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: "\(data)/events.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONValue.parse(String(line)))?["id"]?.stringValue
        }
    }
}
