import Testing
import WatcherCore

/// The failure half of ``FixtureContract``: the faults of ``FailureSweep``, made by a ``FixtureServer``.
struct FixtureFailureSweep {
    let server: FixtureServer
    let samples: FixtureContract.Samples
    let errorBody: String
    let rateLimitBody: String
    let sourceLocation: SourceLocation
    let make: FixtureContract.Factory

    func run() async throws {
        let html = FixtureServer.Answer.text(
            "<!DOCTYPE html><html><body>Bad gateway</body></html>",
            headers: [("Content-Type", "text/html")]
        )
        let wrongShape = FixtureServer.Answer.text(
            #"{"status":{"ok":true},"items":[{"unexpected":1}]}"#,
            headers: [("Content-Type", "application/json")]
        )
        let cases: [(FixtureServer.Fault, String, @Sendable (ProviderError) -> Bool)] = [
            (
                .replace(.text(errorBody, status: 503)), "unavailable(status: 503)",
                { if case .unavailable(_, 503?, _) = $0 { true } else { false } }
            ),
            (.hold(.seconds(5)), "timeout", Self.isTimeout),
            (.trickle(.seconds(5)), "timeout", Self.isTimeout),
            (.replace(html), "invalidResponse", FailureSweep.isInvalidResponse),
            (.truncated, "invalidResponse for a cut body", FailureSweep.isInvalidResponse),
            (.replace(wrongShape), "invalidResponse", FailureSweep.isInvalidResponse),
            (
                .replace(.text(rateLimitBody, status: 429, headers: [("Retry-After", "30")])),
                "rateLimited after 30 s",
                { if case .rateLimited(_, .seconds(30)?) = $0 { true } else { false } }
            ),
        ]
        let clamped = ClampedFetcher(server.http, maxBudget: FailureSweep.budget)
        let (id, operations) = try subject(server.baseURL, clamped)
        for (fault, expected, matches) in cases {
            server.setFault(fault)
            await operations.expectFailures(
                provider: id,
                "\(expected) under \(fault)",
                sourceLocation: sourceLocation,
                matches: matches
            )
        }
        server.setFault(nil)
        let (_, capped) = try subject(server.baseURL, ClampedFetcher(server.http, maxBodyBytes: 16))
        await capped.expectFailures(
            provider: id,
            "invalidResponse for a body over a 16-byte cap",
            sourceLocation: sourceLocation,
            matches: FailureSweep.isInvalidResponse
        )
        try await deadPort()
    }

    /// Nothing listens on the port of a fixture server that has stopped.
    private func deadPort() async throws {
        let url = try await FixtureServer.with([:]) { $0.baseURL }
        let (id, operations) = try subject(url, ClampedFetcher(server.http, maxBudget: FailureSweep.budget))
        await operations.expectFailures(
            provider: id,
            "transport or timeout",
            sourceLocation: sourceLocation,
            matches: FailureSweep.isTransportOrTimeout
        )
    }

    private func subject(_ baseURL: String, _ http: any HTTPFetching) throws -> (String, [ProviderOperation]) {
        let provider = try make(baseURL, http)
        let operations = ProviderOperation.chain(
            provider,
            height: samples.height,
            address: samples.address,
            otherAddress: samples.otherAddress,
            historyAddress: samples.historyAddress,
            txid: samples.txid
        )
        return (provider.id, operations)
    }

    @Sendable static func isTimeout(_ error: ProviderError) -> Bool {
        if case .timeout = error { true } else { false }
    }
}
