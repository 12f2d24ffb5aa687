import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The I/O around ``PriceReducer``: fetches quotes for a price watch, stores the latest price per currency, and
/// commits the reducer's state and events together.
struct PriceDriver: Sendable {
    let watch: WatchConfig
    let context: EngineContext

    /// The currencies always recorded, besides the watch's own.
    static let standard = ["USD", "GBP", "EUR"]

    func poll() async throws {
        let wanted = Array(Set(Self.standard + watch.currencies)).sorted()
        let providers = context.priceProviders
        let quotes = try await context.scheduler.perform(
            on: watch.providers,
            priority: .refresh,
            budget: context.requestBudget
        ) { id in
            guard let provider = providers[id] else {
                throw ProviderError.unsupported(provider: id, operation: "prices")
            }
            return try await provider.quotes(for: wanted)
        }
        let watch = self.watch
        let rule = Self.rule(watch)
        let now = context.events.now()
        try await context.commit { txn in
            var state = try txn.watchState(PriceWatchState.self, watch: watch.id) ?? PriceWatchState()
            var events: [NewEvent] = []
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
