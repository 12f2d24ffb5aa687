import AsyncHTTPClient
import Logging
import WatcherCore
import WatcherHTTP
import WatcherSimnet

/// A simnet on loopback and the real HTTP transport (one AsyncHTTPClient), for one contract run.
///
/// ```swift
/// try await ContractHarness.run { harness in
///     let provider = MyProvider(baseURL: harness.baseURL, http: harness.transport)
///     try await harness.simnet.mine(count: 1)
/// }
/// ```
public struct ContractHarness: Sendable {
    /// The simulated network.
    public let simnet: Simnet
    /// The transport adapters are built with: `User-Agent: watcher/contract`, real budgets and caps.
    public let transport: HTTPTransport

    /// The simnet's root URL, e.g. `http://127.0.0.1:54321`.
    public var baseURL: String { simnet.baseURL }

    /// A small, fast chain: 8 blocks of 24 transactions between 4 funded addresses (one of each kind), with
    /// mempool traffic after each block, so the busiest address has more history than one page of any API.
    public static var defaultConfiguration: SimnetConfiguration {
        SimnetConfiguration(
            chain: ChainParameters(seed: 2_024, initialBlocks: 8, txsPerBlock: 24, fundedAddressCount: 4)
        )
    }

    /// Starts a simnet and a client, runs `body`, and shuts both down whatever happens.
    public static func run<T: Sendable>(
        _ configuration: SimnetConfiguration = defaultConfiguration,
        _ body: (ContractHarness) async throws -> T
    ) async throws -> T {
        let simnet = try await Simnet.start(configuration)
        var logger = Logger(label: "watcher.contract")
        logger.logLevel = .critical
        let service = HTTPClientService(logger: logger)
        let harness = ContractHarness(
            simnet: simnet,
            transport: HTTPTransport(client: service.client, userAgent: "watcher/contract")
        )
        do {
            let result = try await body(harness)
            await harness.stop(service)
            return result
        } catch {
            await harness.stop(service)
            throw error
        }
    }

    private func stop(_ service: HTTPClientService) async {
        for family in ProviderFamily.allCases {
            await simnet.setFaults(family: family, nil)
        }
        await service.shutdown()
        await simnet.shutdown()
    }

    /// Sets the same faults on every provider family (`nil` clears them).
    public func setFaults(_ faults: FaultConfiguration?) async {
        for family in ProviderFamily.allCases { await simnet.setFaults(family: family, faults) }
    }

    /// Sets the same rate limit on every provider family (`nil` clears it).
    public func setRateLimit(_ limit: RateLimit?) async {
        for family in ProviderFamily.allCases { await simnet.setRateLimit(family: family, limit) }
    }

    /// The transport with each request's budget and body cap tightened.
    public func clamped(budget: Duration? = nil, maxBodyBytes: Int? = nil) -> ClampedFetcher {
        ClampedFetcher(transport, maxBudget: budget, maxBodyBytes: maxBodyBytes)
    }
}
