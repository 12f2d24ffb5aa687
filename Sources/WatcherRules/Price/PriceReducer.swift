import Foundation
import WatcherCore
import WatcherJSON

/// A price watch's memory: which side of each level the price was on, how many crossings each level has seen,
/// and recent samples for the change window.
public struct PriceWatchState: Codable, Sendable, Equatable {
    /// One price in the change window.
    public struct Sample: Codable, Sendable, Equatable {
        /// The quote time.
        public var time: Date
        /// The price.
        public var price: Decimal
    }

    /// An empty state.
    public init() {}

    /// Level (as text) → whether the last price was at or above it.
    public var above: [String: Bool] = [:]
    /// Level (as text) → crossings announced so far (part of the event id, so each crossing is its own fact).
    public var crossings: [String: Int] = [:]
    /// Samples inside the change window, oldest first.
    public var samples: [Sample] = []
}

/// The pure price rules: threshold crossings (once per crossing until it crosses back) and percentage moves.
public enum PriceReducer {
    /// Applies one quote of one of the watch's currencies.
    public static func reduce(_ state: PriceWatchState, quote: PriceQuote, watch: PriceRule, now: Date)
        -> (PriceWatchState, [NewEvent])
    {
        var state = state
        let events = evaluate(&state, quote: quote, watch: watch, builder: EventBuilder(now: { now }))
        return (state, events)
    }

    static func evaluate(
        _ state: inout PriceWatchState,
        quote: PriceQuote,
        watch: PriceRule,
        builder: EventBuilder
    ) -> [NewEvent] {
        var events: [NewEvent] = []
        let currency = quote.currency
        func data(_ extra: [JSONValue.Member]) -> [JSONValue.Member] {
            [
                .init("currency", .string(currency)), .init("price", .string("\(quote.price)")),
                .init("time", .string(EventBuilder.timestamp(quote.time))), .init("provider", .string(quote.provider)),
            ] + extra
        }
        if watch.emitUpdates {
            events.append(
                builder.make(
                    type: "price.updated",
                    fact: [watch.id, currency, "\(quote.time.timeIntervalSince1970)", "\(quote.price)"],
                    source: watch.id,
                    subject: currency,
                    data: data([])
                )
            )
        }
        let levels = watch.above.map { ($0, "above") } + watch.below.map { ($0, "below") }
        for (level, direction) in levels {
            let key = "\(level)"
            let nowAbove = quote.price >= level
            defer { state.above[key] = nowAbove }
            guard let wasAbove = state.above[key], wasAbove != nowAbove else { continue }
            let crossedUp = nowAbove && direction == "above"
            let crossedDown = !nowAbove && direction == "below"
            guard crossedUp || crossedDown else { continue }
            let count = (state.crossings[key + direction] ?? 0) + 1
            state.crossings[key + direction] = count
            events.append(
                builder.make(
                    type: "price.threshold.crossed",
                    fact: [watch.id, currency, key, direction, "\(count)"],
                    source: watch.id,
                    subject: currency,
                    data: data([.init("level", .string(key)), .init("direction", .string(direction))])
                )
            )
        }
        if let percent = watch.changePercent, let window = watch.window {
            let cutoff = quote.time.addingTimeInterval(-window.seconds)
            state.samples.removeAll { $0.time < cutoff }
            if let oldest = state.samples.first, oldest.price != 0 {
                let change = (quote.price - oldest.price) / oldest.price * 100
                if abs(change) >= percent {
                    var rounded = Decimal()
                    var value = change
                    NSDecimalRound(&rounded, &value, 2, .plain)
                    events.append(
                        builder.make(
                            type: "price.change",
                            fact: [watch.id, currency, "\(oldest.time.timeIntervalSince1970)", "\(oldest.price)"],
                            source: watch.id,
                            subject: currency,
                            data: data([
                                .init("changePercent", .string("\(rounded)")),
                                .init("from", .string("\(oldest.price)")),
                                .init("window", .string(window.configText)),
                            ])
                        )
                    )
                    // The move is announced; measure the next one from here.
                    state.samples.removeAll()
                }
            }
            state.samples.append(.init(time: quote.time, price: quote.price))
        }
        return events
    }
}
