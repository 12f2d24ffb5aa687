import Testing
import WatcherCore
import WatcherSimnet

/// The failure half of both contracts: every operation of a provider, under every simnet fault, a rate limit,
/// a tiny body cap and a dead port, must throw the right ``ProviderError`` naming the provider, and never crash.
///
/// | condition | expected error |
/// | --- | --- |
/// | HTTP 503 with the family's error body | `unavailable(status: 503)` |
/// | held past the budget (`timeout`), body trickled past it (`slow`) | `timeout` |
/// | HTML instead of JSON (`malformed`), half a body (`truncated`), another endpoint's JSON (`wrongshape`) | `invalidResponse` |
/// | over the simnet's rate limit | `rateLimited` with the `Retry-After` delay |
/// | body larger than the cap | `invalidResponse` |
/// | nothing listening | `transport` (or `timeout`) |
public struct FailureSweep: Sendable {
    /// Builds the provider under test over a transport and lists its operations.
    public typealias Subject =
        @Sendable (_ baseURL: String, _ http: any HTTPFetching) throws -> (
            id: String, operations: [ProviderOperation]
        )

    /// The budget requests get during the sweep: short, so that timeouts are quick, yet long enough that a loaded
    /// machine (the whole suite in parallel, a browser, PostgreSQL) answers a fast fault within it; at 300 ms a
    /// 503 sometimes arrived as a timeout in CI.
    public static let budget = Duration.seconds(2)

    let harness: ContractHarness
    let subject: Subject
    let sourceLocation: SourceLocation

    /// Creates a sweep.
    public init(harness: ContractHarness, sourceLocation: SourceLocation, subject: @escaping Subject) {
        self.harness = harness
        self.subject = subject
        self.sourceLocation = sourceLocation
    }

    /// Runs every part of the sweep.
    public func run() async throws {
        try await faults()
        try await rateLimit()
        try await bodyCap()
        try await deadPort()
    }

    /// Each simnet fault kind in turn, on every request.
    public func faults() async throws {
        let cases: [(FaultConfiguration.Kind, String, @Sendable (ProviderError) -> Bool)] = [
            (
                .serverError, "unavailable(status: 503)",
                { if case .unavailable(_, 503?, _) = $0 { true } else { false } }
            ),
            (.timeout, "timeout", { if case .timeout = $0 { true } else { false } }),
            (.slow, "timeout", { if case .timeout = $0 { true } else { false } }),
            (.malformed, "invalidResponse", Self.isInvalidResponse),
            (.truncated, "invalidResponse", Self.isInvalidResponse),
            (.wrongShape, "invalidResponse", Self.isInvalidResponse),
        ]
        let (id, operations) = try subject(harness.baseURL, harness.clamped(budget: Self.budget))
        for (kind, expected, matches) in cases {
            await harness.setFaults(
                FaultConfiguration(
                    rate: 1,
                    kinds: [kind],
                    statuses: [503],
                    timeout: .seconds(5),
                    slowDuration: .seconds(5)
                )
            )
            // Blockbook's status page is the right answer to a status probe, whatever the fault's intent.
            await operations.expectFailures(
                provider: id,
                "\(expected) under the \(kind.rawValue) fault",
                sourceLocation: sourceLocation,
                allowSuccess: { kind == .wrongShape && $0.name == "health()" },
                matches: matches
            )
        }
        await harness.setFaults(nil)
    }

    /// A bucket of one request per ten minutes: the next calls must be `rateLimited` with a `Retry-After` delay.
    public func rateLimit() async throws {
        let (id, operations) = try subject(harness.baseURL, harness.transport)
        guard let operation = operations.first(where: { $0.name != "health()" }) ?? operations.first else { return }
        await harness.setRateLimit(RateLimit(requests: 1, per: .seconds(600)))
        var limited = false
        for _ in 0..<3 where !limited {
            do {
                try await operation.run()
            } catch ProviderError.rateLimited(let provider, let retryAfter) {
                limited = true
                #expect(provider == id, "rate limit error names \(provider), not \(id)", sourceLocation: sourceLocation)
                #expect(
                    (retryAfter ?? .zero) > .zero,
                    "\(operation.name): rateLimited should carry the Retry-After delay, got \(String(describing: retryAfter))",
                    sourceLocation: sourceLocation
                )
            } catch {
                Issue.record("\(operation.name): expected rateLimited, got \(error)", sourceLocation: sourceLocation)
                break
            }
        }
        #expect(
            limited,
            "\(operation.name): three calls over a 1-request bucket were never rate limited",
            sourceLocation: sourceLocation
        )
        await harness.setRateLimit(nil)
    }

    /// A 16-byte body cap: every answer is too large.
    public func bodyCap() async throws {
        let (id, operations) = try subject(harness.baseURL, harness.clamped(maxBodyBytes: 16))
        await operations.expectFailures(
            provider: id,
            "invalidResponse for a body over the cap",
            sourceLocation: sourceLocation,
            matches: Self.isInvalidResponse
        )
    }

    /// Nothing listens on the port of a simnet that was just shut down.
    public func deadPort() async throws {
        let tiny = ChainParameters(
            seed: 1,
            initialBlocks: 1,
            txsPerBlock: 1,
            mempoolTxsPerBlock: 0,
            fundedAddressCount: 1
        )
        let closed = try await Simnet.start(SimnetConfiguration(chain: tiny))
        let url = closed.baseURL
        await closed.shutdown()
        // AsyncHTTPClient retries refused connections until the budget ends, so a timeout is as right here.
        let (id, operations) = try subject(url, harness.clamped(budget: Self.budget))
        await operations.expectFailures(
            provider: id,
            "transport or timeout",
            sourceLocation: sourceLocation,
            matches: Self.isTransportOrTimeout
        )
    }

    @Sendable static func isInvalidResponse(_ error: ProviderError) -> Bool {
        if case .invalidResponse = error { true } else { false }
    }

    /// A closed port: AsyncHTTPClient retries refused connections until the budget ends, so a timeout is as right.
    @Sendable static func isTransportOrTimeout(_ error: ProviderError) -> Bool {
        switch error {
        case .transport, .timeout: true
        default: false
        }
    }
}
