import WatcherCore
import WatcherStorage

/// Fetches quotes for a price watch, stores the latest price per currency, and applies the price rules.
struct PriceTracker: Sendable {
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
        ) {
            id in
            guard let provider = providers[id] else {
                throw ProviderError.unsupported(provider: id, operation: "prices")
            }
            return try await provider.quotes(for: wanted)
        }
        let watch = self.watch
        let builder = context.events
        try await context.commit { txn in
            var state = try txn.watchState(PriceWatchState.self, watch: watch.id) ?? PriceWatchState()
            var events: [NewEvent] = []
            for quote in quotes {
                try txn.putPrice(quote)
                if watch.currencies.contains(quote.currency) {
                    events += PriceRules.evaluate(&state, quote: quote, watch: watch, builder: builder)
                }
            }
            try txn.putWatchState(state, watch: watch.id)
            return events
        }
    }
}
