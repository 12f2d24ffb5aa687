import Foundation
import RawAddrAdapter
import Testing
import WatcherCore
import WatcherHTTP
import WatcherTesting

/// Every real blockchain.info fixture for `/rawaddr` and `/multiaddr`, and its plain-text errors, served over
/// loopback HTTP and decoded through the real transport and the whole adapter.
@Suite("rawaddr fixtures")
struct RawAddrFixtureTests {
    static let p2pkh = "1PYexakYRvWnzYa21kPWqbXgwPvLjnttMp"
    static let paged = "1XPTgDRhN8RFnzniWCddobD9iKZatrvH4"
    static let single = "bc1qdlt2jrplkf0v7ucvhhjhs0qf7cqr0j27k7j7p0"
    static let pair = ["bc1q5242kk7ut5nkyv74g765amvwqnglrya6xgj6mz", "bc1qm4lpczdpkcs6j4twpzd2lgguy0sd8zzsm6puhl"]

    /// Runs `body` with an adapter whose API is a loopback server answering `answers`, and that server.
    @discardableResult
    func withRawAddr<T>(
        _ answers: [String: FixtureServer.Answer],
        batchSize: Int = 80,
        _ body: (RawAddrProvider, FixtureServer) async throws -> T
    ) async throws -> T {
        try await FixtureServer.with(answers) { server in
            try await body(
                RawAddrProvider(id: "bci", baseURL: server.baseURL, http: server.http, batchSize: batchSize),
                server
            )
        }
    }

    @Test func rawaddrSummaryAndHistory() async throws {
        let answers = ["/rawaddr/\(Self.p2pkh)": try Fixture.answer("rawaddr/rawaddr_p2pkh_2tx_zero_balance.json")]
        try await withRawAddr(answers) { bci, _ in
            let summary = try await bci.address(Self.p2pkh)
            #expect(
                summary
                    == AddressSummary(
                        address: Self.p2pkh,
                        balanceSat: 0,
                        totalReceivedSat: 99_630_000,
                        totalSentSat: 99_630_000,
                        txCount: 2,
                        unconfirmedBalanceSat: 0,
                        unconfirmedTxCount: 0
                    )
            )
            let history = try await bci.addressTransactions(Self.p2pkh, limit: 10, after: nil)
            #expect(history.map(\.deltaSat) == [-99_630_000, 99_630_000])
            #expect(history.allSatisfy { $0.blockHeight != nil })
        }
    }

    @Test func pagedAddressBeyondInt32() async throws {
        let answers = ["/rawaddr/\(Self.paged)": try Fixture.answer("rawaddr/rawaddr_p2pkh_page_of_3340_txs.json")]
        try await withRawAddr(answers) { bci, server in
            let summary = try await bci.address(Self.paged)
            #expect(
                summary.totalReceivedSat == 8_143_209_124_126 && summary.balanceSat == 18_142
                    && summary.txCount == 3_340
            )
            let history = try await bci.addressTransactions(Self.paged, limit: 3, after: nil)
            #expect(history.map(\.deltaSat) == [2_613, 12_217, 1_000])
            #expect(history.first?.blockHeight == 722_775)
            #expect(server.urls.last?.contains("limit=50&offset=0") == true)
        }
    }

    @Test func unconfirmedTransactionsAreSplitOut() async throws {
        // The newest transaction made unconfirmed: block_height null, so its +2613 moves to the mempool part.
        let body = try Fixture.edited("rawaddr/rawaddr_p2pkh_page_of_3340_txs.json") {
            $0.replacingOccurrences(of: "\"block_height\": 722775", with: "\"block_height\": null")
        }
        try await withRawAddr(["/rawaddr/\(Self.paged)": body]) { bci, _ in
            let summary = try await bci.address(Self.paged)
            #expect(summary.unconfirmedBalanceSat == 2_613 && summary.unconfirmedTxCount == 1)
            #expect(summary.balanceSat == 18_142 - 2_613 && summary.txCount == 3_339)
            let received: Int64 = 8_143_209_124_126 - 2_613
            #expect(summary.totalReceivedSat == received)
            let history = try await bci.addressTransactions(Self.paged, limit: 1, after: nil)
            #expect(history.first?.blockHeight == nil)
        }
    }

    @Test func unknownMempoolExtentLeavesTheSplitUnknown() async throws {
        let body = try Fixture.edited("rawaddr/rawaddr_p2pkh_2tx_zero_balance.json") {
            $0.replacingOccurrences(
                of: #""block_height": \d+"#,
                with: "\"block_height\": null",
                options: .regularExpression
            )
        }
        // Every transaction of a full page is unconfirmed: more may exist, so nothing is guessed.
        try await withRawAddr(["/rawaddr/\(Self.p2pkh)": body]) { bci, _ in
            let summary = try await bci.address(Self.p2pkh)
            #expect(summary.unconfirmedTxCount == 2, "two txs on a page of 50 is the whole mempool part")
        }
        let decoder = RawAddrDecoder(provider: "bci")
        let node = try ProviderHTTP.json(body.body, provider: "bci")
        let unknown = try decoder.rawaddrSummary(node, address: Self.p2pkh, pageSize: 2)
        #expect(unknown.balanceSat == nil && unknown.txCount == nil && unknown.unconfirmedBalanceSat == nil)
    }

    @Test func multiaddrMatchedByAddressNotOrder() async throws {
        let answers = ["/multiaddr": try Fixture.answer("rawaddr/multiaddr_two_bech32_3tx.json")]
        try await withRawAddr(answers) { bci, server in
            let summaries = try await bci.addresses(Self.pair.reversed())
            #expect(summaries.map(\.address) == Self.pair.reversed())
            #expect(summaries.map(\.totalReceivedSat) == [2_543_836, 3_462_186])
            #expect(summaries.allSatisfy { $0.balanceSat == 0 && $0.txCount == 2 && $0.unconfirmedTxCount == 0 })
            #expect(server.urls.first?.contains("active=\(Self.pair[1])%7C\(Self.pair[0])&n=100") == true)
        }
    }

    @Test func multiaddrSingleWithLenientInfo() async throws {
        let answers = ["/multiaddr": try Fixture.answer("rawaddr/multiaddr_single_bech32_2tx.json")]
        try await withRawAddr(answers) { bci, _ in
            let summary = try #require(try await bci.addresses([Self.single]).first)
            #expect(summary.totalReceivedSat == 113_000 && summary.totalSentSat == 113_000 && summary.balanceSat == 0)
        }
    }

    @Test func batchesOfBatchSize() async throws {
        let answers = ["/multiaddr": try Fixture.answer("rawaddr/multiaddr_two_bech32_3tx.json")]
        try await withRawAddr(answers, batchSize: 1) { bci, server in
            let summaries = try await bci.addresses(Self.pair + [Self.pair[0].uppercased()])
            #expect(summaries.count == 2, "duplicates (any case) are asked once")
            #expect(server.urls.count == 2)
        }
    }

    @Test func missingBatchEntryIsInvalid() async throws {
        let answers = ["/multiaddr": try Fixture.answer("rawaddr/multiaddr_single_bech32_2tx.json")]
        try await withRawAddr(answers) { bci, _ in
            await #expect(throws: ProviderError.self) { _ = try await bci.addresses([Self.single, Self.pair[0]]) }
        }
    }

    @Test func plainTextErrors() async throws {
        let nginx = "<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body></body>\r\n</html>"
        let answers: [String: FixtureServer.Answer] = [
            "/rawaddr/bad": try Fixture.answer("rawaddr/error_invalid_bitcoin_address.txt", status: 500),
            "/rawaddr/limited": try Fixture.answer(
                "rawaddr/error_rate_limited.txt",
                status: 429,
                headers: [("retry-after", "10")]
            ),
            "/rawaddr/nginx": .text(nginx, status: 429),
            "/rawaddr/busy": .text(
                "Maximum concurrent requests for this endpoint reached. Please try again shortly.",
                status: 429
            ),
            "/rawaddr/gateway": .text("<html><title>502 Bad Gateway</title></html>", status: 502),
            "/rawaddr/haskoin": .text(
                #"{"error":"not-found-or-invalid-arg","message":"Item not found or argument invalid"}"#,
                status: 200
            ),
        ]
        try await withRawAddr(answers) { bci, _ in
            await #expect(throws: ProviderError.badRequest(provider: "bci", detail: "Invalid Bitcoin Address")) {
                _ = try await bci.address("bad")
            }
            await #expect(throws: ProviderError.rateLimited(provider: "bci", retryAfter: .seconds(10))) {
                _ = try await bci.address("limited")
            }
            await #expect(throws: ProviderError.rateLimited(provider: "bci", retryAfter: nil)) {
                _ = try await bci.address("nginx")
            }
            await #expect(throws: ProviderError.rateLimited(provider: "bci", retryAfter: nil)) {
                _ = try await bci.address("busy")
            }
            await #expect(throws: ProviderError.unavailable(provider: "bci", status: 502, detail: "502 Bad Gateway")) {
                _ = try await bci.address("gateway")
            }
            await #expect(throws: ProviderError.self) { _ = try await bci.address("haskoin") }
            await #expect(throws: ProviderError.notFound(provider: "bci", what: "latest block")) {
                _ = try await bci.tip()
            }
        }
    }
}
