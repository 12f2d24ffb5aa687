import Foundation
import Testing
import WatcherCore
import WatcherHTTP
import WatcherJSON
import WatcherTesting

@testable import BitcoindAdapter

/// Credentials and the node's refusals: 401, 403 and 503.
@Suite struct BitcoindAuthTests {
    static let chainInfo = "getblockchaininfo-main-764955-core23.json"

    @Test func aRotatedCookieIsReadAgainAfterA401() async throws {
        let old = "__cookie__:1111111111111111111111111111111111111111111111111111111111111111"
        let new = "__cookie__:2222222222222222222222222222222222222222222222222222222222222222"
        let node = RecordedNode(["getblockchaininfo": .result(try Recorded.json(Self.chainInfo))])
        try await Recorded.withCookie(old) { path in
            node.accept(Recorded.basic(old))
            try await node.serve { url in
                try await FixtureServer.withTransport { http in
                    let provider = BitcoindProvider(id: "node", baseURL: url, http: http, auth: .cookieFile(path))
                    #expect(try await provider.tip().height == 764_955)
                    // The node restarts: a new cookie file, the old one refused.
                    try Data(new.utf8).write(to: URL(fileURLWithPath: path))
                    node.accept(Recorded.basic(new))
                    let before = node.requests
                    #expect(try await provider.tip().height == 764_955)
                    #expect(node.requests - before == 2, "one 401, then the retry with the new cookie")
                    // A cookie the node never accepts: read once more, then refused, naming the file.
                    node.accept(Recorded.basic("__cookie__:none"))
                    let error = await #expect(throws: ProviderError.self) { try await provider.tip() }
                    #expect(
                        error
                            == .unavailable(
                                provider: "node",
                                status: 401,
                                detail: "unauthorized: the node refused the credentials of cookieFile \(path)"
                            )
                    )
                    #expect(error?.description.contains("2222") == false)
                }
            }
        }
    }

    @Test func aWrongPasswordNamesTheOptionNeverTheSecret() async throws {
        let secret = "s3cret-Pa55word-never-shown"
        let node = RecordedNode(
            ["getblockchaininfo": .result(try Recorded.json(Self.chainInfo))],
            accepting: Recorded.basic("watcher:right")
        )
        try await node.serve { url in
            try await FixtureServer.withTransport { http in
                let provider = BitcoindProvider(
                    id: "node",
                    baseURL: url,
                    http: http,
                    auth: .password(user: "watcher", password: secret)
                )
                for operation in [{ _ = try await provider.tip() }, { _ = try await provider.health() }] {
                    let error = await #expect(throws: ProviderError.self) { try await operation() }
                    let text = "\(error.map { "\($0)" } ?? "") \(error?.summary ?? "")"
                    #expect(text.contains("user \"watcher\" and password"))
                    #expect(!text.contains(secret))
                    #expect(!text.contains(Data(secret.utf8).base64EncodedString()))
                }
            }
        }
        #expect(node.requests == 2, "a password is not retried")
    }

    @Test func aMissingCookieFileIsUnavailableNamingIt() async throws {
        try await FixtureServer.withTransport { http in
            let provider = BitcoindProvider(
                id: "node",
                baseURL: "http://127.0.0.1:9",
                http: http,
                auth: .cookieFile("/nonexistent/.cookie")
            )
            let error = await #expect(throws: ProviderError.self) { try await provider.tip() }
            #expect(error?.description.contains("cannot read cookieFile /nonexistent/.cookie") == true)
        }
    }

    @Test func forbiddenByRPCWhitelist() async throws {
        let node = RecordedNode(["getblockchaininfo": .http(status: 403, body: [])])
        try await node.serve { url in
            try await FixtureServer.withTransport { http in
                let provider = BitcoindProvider(
                    id: "node",
                    baseURL: url,
                    http: http,
                    auth: .password(user: "watcher", password: "x")
                )
                await #expect(
                    throws: ProviderError.unavailable(
                        provider: "node",
                        status: 403,
                        detail: "the blockchain info is forbidden to this user by the node's -rpcwhitelist"
                    )
                ) { try await provider.tip() }
            }
        }
    }

    @Test func aFullWorkQueueBacksOffLikeA429() async throws {
        let node = RecordedNode([
            "getblockchaininfo": .http(
                status: 503,
                body: try Recorded.bytes("error-http503-work-queue-depth-exceeded.txt")
            )
        ])
        try await node.serve { url in
            try await FixtureServer.withTransport { http in
                let provider = BitcoindProvider(
                    id: "node",
                    baseURL: url,
                    http: http,
                    auth: .password(user: "watcher", password: "x")
                )
                let error = await #expect(throws: ProviderError.self) { try await provider.tip() }
                guard case .unavailable(_, 503?, let detail)? = error else {
                    Issue.record("expected unavailable(503), got \(String(describing: error))")
                    return
                }
                #expect(detail?.contains("work queue depth exceeded") == true)
            }
        }
    }
}
