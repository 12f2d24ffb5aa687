import Foundation
import Testing
import WatcherCore
import WatcherHTTP
import WatcherJSON
import WatcherTestSupport
import WatcherTesting

@testable import BitcoindAdapter

/// The fault sweep of the contract kit, on the node's RPC: every declared operation under each broken answer
/// throws the right error, naming the provider.
@Suite struct BitcoindFailureTests {
    static let hash = "00000000c937983704a73af28acdec37b049d214adbda81d7e2a3dd146f6ed09"
    static let txid = "95d51e813daeb9a861b2dcdddf1da8c198d06452bbbecfd827447881ff79e061"

    static func operations(_ provider: BitcoindProvider) -> [(String, @Sendable () async throws -> Void)] {
        [
            ("health()", { _ = try await provider.health() }),
            ("tip()", { _ = try await provider.tip() }),
            ("block(1000)", { _ = try await provider.block(.height(1000)) }),
            ("block(hash)", { _ = try await provider.block(.hash(hash)) }),
            ("blockTransactions", { _ = try await provider.blockTransactions(.hash(hash), page: 1) }),
            ("transaction", { _ = try await provider.transaction(txid) }),
            ("mempoolTxids", { _ = try await provider.mempoolTxids() }),
            ("mempoolTransactions", { _ = try await provider.mempoolTransactions([txid]) }),
        ]
    }

    @Test func everyOperationUnderEachFault() async throws {
        let reply = try Recorded.json("getblockchaininfo-main-764955-core23.json")
        let half = Array(
            JSONValue.object([.init("result", reply), .init("error", .null), .init("id", .number("1"))]).serialized()
                .utf8
        )
        let faults: [(String, RecordedNode.Reply, (ProviderError) -> Bool)] = [
            (
                "503 page", .http(status: 503, body: Array("<html><h1>503 Service Unavailable</h1></html>".utf8)),
                { if case .unavailable(_, 503?, _) = $0 { true } else { false } }
            ),
            (
                "HTML with 200", .http(status: 200, body: Array("<html><body>proxy</body></html>".utf8)),
                { if case .invalidResponse = $0 { true } else { false } }
            ),
            (
                "half a reply", .http(status: 200, body: Array(half.prefix(half.count / 2))),
                { if case .invalidResponse = $0 { true } else { false } }
            ),
            (
                "JSON of another shape", .http(status: 200, body: Array(#"{"blockbook": {"inSync": true}}"#.utf8)),
                { if case .invalidResponse = $0 { true } else { false } }
            ),
            (
                "empty 500", .http(status: 500, body: []),
                { if case .unavailable(_, 500?, _) = $0 { true } else { false } }
            ),
        ]
        let node = RecordedNode([:])
        try await node.serve { url in
            try await FixtureServer.withTransport { http in
                let provider = BitcoindProvider(
                    id: "node",
                    baseURL: url,
                    http: http,
                    auth: .password(user: "watcher", password: "x"),
                    chain: "btc-testnet"
                )
                for (fault, reply, expected) in faults {
                    node.setFault(reply)
                    for (name, operation) in Self.operations(provider) {
                        do {
                            try await operation()
                            Issue.record("\(name) succeeded under \(fault)")
                        } catch let error as ProviderError {
                            #expect(expected(error), "\(name) under \(fault): \(error)")
                            #expect(error.provider == "node")
                        }
                    }
                }
            }
        }
    }

    @Test func aClosedPortIsATransportError() async throws {
        let closed = try RefusingPort()
        try await FixtureServer.withTransport { http in
            let provider = BitcoindProvider(
                id: "node",
                baseURL: "http://127.0.0.1:\(closed.port)",
                http: http,
                options: HTTPOptions(timeout: .milliseconds(500)),
                auth: .password(user: "watcher", password: "x")
            )
            for (name, operation) in Self.operations(provider) {
                do {
                    try await operation()
                    Issue.record("\(name) succeeded on a closed port")
                } catch let error as ProviderError {
                    switch error {
                    case .transport, .timeout: break
                    default: Issue.record("\(name) on a closed port: \(error)")
                    }
                }
            }
        }
    }
}
