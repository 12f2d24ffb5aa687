import Logging
import WatcherConfiguration
import WatcherCore
import WatcherHTTP
import WatcherScheduler

/// The providers of a config for one CLI command: one HTTP client, the configured adapters, and a scheduler so
/// their rate limits apply. Shut down when the body returns.
struct ProviderSession {
    let config: WatcherConfig
    let chainProviders: [String: any ChainProvider]
    let priceProviders: [String: any PriceProvider]
    let scheduler: Scheduler<TimeSourceClock>

    /// Runs `body` with the providers of `config`.
    static func with<T: Sendable>(
        _ config: WatcherConfig,
        _ body: @Sendable (ProviderSession) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "watcher")
        logger.logLevel = .error
        let http = HTTPClientService(logger: logger)
        let context = PluginContext(
            http: HTTPTransport(client: http.client, userAgent: WatcherVersion.userAgent),
            logger: logger,
            dataDirectory: config.storage.path,
            time: .system
        )
        var chain: [String: any ChainProvider] = [:]
        var price: [String: any PriceProvider] = [:]
        do {
            for provider in config.providers {
                if let made = try provider.plugin.makeChainProvider(context: context) { chain[provider.id] = made }
                if let made = try provider.plugin.makePriceProvider(context: context) { price[provider.id] = made }
            }
        } catch {
            await http.shutdown()
            throw CommandFailure.runtime("\(error)")
        }
        let scheduler = Scheduler(
            limits: Dictionary(config.providers.map { ($0.id, $0.rateLimit) }) { first, _ in first },
            clock: TimeSourceClock(.system),
            logger: logger
        )
        let session = ProviderSession(
            config: config,
            chainProviders: chain,
            priceProviders: price,
            scheduler: scheduler
        )
        let result: Result<T, any Error>
        do {
            result = .success(
                try await withThrowingTaskGroup(of: T?.self) { group in
                    group.addTask {
                        try await scheduler.run()
                        return nil
                    }
                    defer { group.cancelAll() }
                    return try await body(session)
                }
            )
        } catch {
            result = .failure(error)
        }
        await http.shutdown()
        return try result.get()
    }

    /// The chain providers of `chain` in config order (those that serve chain data).
    func chainProviderIDs(chain: String = "btc") -> [String] {
        config.providers.filter { $0.servesChain && $0.chain == chain && chainProviders[$0.id] != nil }.map(\.id)
    }

    /// Runs a chain request through the scheduler with failover along the configured providers.
    func ask<T: Sendable>(
        chain: String = "btc",
        _ operation: @escaping @Sendable (any ChainProvider) async throws -> T
    ) async throws -> T {
        let ids = chainProviderIDs(chain: chain)
        guard !ids.isEmpty else { throw CommandFailure.usage("no chain provider for \(chain) in the config") }
        let providers = chainProviders
        return try await scheduler.perform(on: ids, priority: .tip, budget: .seconds(30)) { id in
            guard let provider = providers[id] else {
                throw ProviderError.unsupported(provider: id, operation: "chain")
            }
            return try await operation(provider)
        }
    }
}
