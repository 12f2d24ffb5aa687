import Foundation

/// What a `price` watch asks of its quotes: the levels whose crossings are announced, the move announced within a
/// window, and whether every quote is announced. The engine builds it from the watch's config.
public struct PriceRule: Sendable {
    /// The watch id (the events' `source`).
    public var id: String
    /// Crossing upwards is announced.
    public var above: [Decimal]
    /// Crossing downwards is announced.
    public var below: [Decimal]
    /// A move of at least this many percent within `window` is announced.
    public var changePercent: Decimal?
    /// The window for `changePercent`.
    public var window: Duration?
    /// Every quote is announced as `price.updated`.
    public var emitUpdates: Bool

    /// Creates a rule.
    public init(
        id: String,
        above: [Decimal] = [],
        below: [Decimal] = [],
        changePercent: Decimal? = nil,
        window: Duration? = nil,
        emitUpdates: Bool = false
    ) {
        self.id = id
        self.above = above
        self.below = below
        self.changePercent = changePercent
        self.window = window
        self.emitUpdates = emitUpdates
    }
}
