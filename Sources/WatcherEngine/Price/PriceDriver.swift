import Logging
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The I/O around ``PriceReducer``: fetches quotes for a price watch (from the first provider that answers, or
/// under `median` from each), stores the latest price per currency and each provider's own quotes, and commits the
/// reducer's state and events together.
struct PriceDriver: Sendable {
    let watch: WatchConfig
    let context: EngineContext
    /// `median`: the providers failing now, with their error, so a feed going down or coming back is logged once.
    private let failing = Locked<[String: String]>([:])

    init(watch: WatchConfig, context: EngineContext) {
        self.watch = watch
        self.context = context
    }

    /// The currencies always recorded, besides the watch's own.
    static let standard = ["USD", "GBP", "EUR"]

    func poll() async throws {
        let wanted = Array(Set(Self.standard + watch.currencies)).sorted()
        let (quotes, bySource) = watch.median ? try await askEach(wanted) : try await askFirst(wanted)
        let watch = self.watch
        let rule = Self.rule(watch)
        let now = context.events.now()
        try await context.commit { txn in
            var state = try txn.watchState(PriceWatchState.self, watch: watch.id) ?? PriceWatchState()
            var events: [NewEvent] = []
            for quote in bySource { try txn.putSourcePrice(quote) }
            for quote in quotes {
                try txn.putPrice(quote)
                guard watch.currencies.contains(quote.currency) else { continue }
                let (next, emitted) = PriceReducer.reduce(state, quote: quote, watch: rule, now: now)
                state = next
                events += emitted
            }
            try txn.putWatchState(state, watch: watch.id)
            return events
        }
        // Said once by the job loop (failures are logged when they change), instead of a silent watch.
        let missing = watch.currencies.filter { currency in !quotes.contains { $0.currency == currency } }
        if !missing.isEmpty {
            throw ProviderError.unsupported(
                provider: quotes.first?.provider ?? watch.providers.joined(separator: ","),
                operation: "a quote in \(missing.joined(separator: ", "))"
            )
        }
    }

    /// The first provider that answers (failover): its quotes are the prices and its own.
    private func askFirst(_ wanted: [String]) async throws -> ([PriceQuote], [PriceQuote]) {
        let quotes = try await context.scheduler.perform(
            on: watch.providers,
            priority: .refresh,
            budget: context.requestBudget
        ) { id in try await ask(id, wanted) }
        return (quotes, quotes)
    }

    /// `median`: every provider at once; the prices are the medians per currency of those that answered, and each
    /// one's quotes are kept. Fails only when none answers; a provider that starts failing or answers again is
    /// logged once (the job loop says nothing while the others answer).
    private func askEach(_ wanted: [String]) async throws -> ([PriceQuote], [PriceQuote]) {
        // At once, each within one interval: a feed that is down or slow leaves this round to the others instead
        // of holding their quotes back while it is retried.
        let budget = min(context.requestBudget, watch.every)
        let answers = await withTaskGroup(of: (String, Result<[PriceQuote], any Error>).self) { group in
            for id in watch.providers {
                group.addTask {
                    do {
                        let quotes = try await context.scheduler.perform(on: [id], priority: .refresh, budget: budget) {
                            id in try await ask(id, wanted)
                        }
                        return (id, .success(quotes))
                    } catch {
                        return (id, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let quotes = watch.providers.flatMap { (try? answers[$0]?.get()) ?? [] }
        let errors = answers.compactMapValues { answer -> (any Error)? in
            if case .failure(let error) = answer { return error }
            return nil
        }
        let now = errors.mapValues { ($0 as? ProviderError)?.summary ?? "\($0)" }
        let before = failing.withLock { failing in
            defer { failing = now }
            return failing
        }
        for (id, error) in now.sorted(by: { $0.key < $1.key }) where before[id] != error {
            context.logger.warning(
                "price provider failed; the median is taken of the others",
                metadata: ["watch": "\(watch.id)", "provider": "\(id)", "error": "\(error)"]
            )
        }
        for id in before.keys.sorted() where now[id] == nil {
            context.logger.info(
                "price provider answers again",
                metadata: ["watch": "\(watch.id)", "provider": "\(id)"]
            )
        }
        if quotes.isEmpty, let first = watch.providers.lazy.compactMap({ errors[$0] }).first { throw first }
        let medians = Set(quotes.map(\.currency)).sorted().compactMap { currency in
            PriceMedian.combine(quotes.filter { $0.currency == currency })
        }
        return (medians, quotes)
    }

    private func ask(_ id: String, _ wanted: [String]) async throws -> [PriceQuote] {
        guard let provider = context.priceProviders[id] else {
            throw ProviderError.unsupported(provider: id, operation: "prices")
        }
        return try await provider.quotes(for: wanted)
    }

    /// What the rules read of a price watch.
    static func rule(_ watch: WatchConfig) -> PriceRule {
        PriceRule(
            id: watch.id,
            above: watch.above,
            below: watch.below,
            changePercent: watch.changePercent,
            window: watch.window,
            emitUpdates: watch.emitUpdates
        )
    }
}
