import WatcherCore

/// How urgent a provider request is. When the budget is short, lower-priority work waits.
public enum RequestPriority: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Tip and new-block checks.
    case tip = 0
    /// Refreshes of followed addresses and prices.
    case refresh = 1
    /// Backfill and history paging.
    case backfill = 2

    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .tip: "tip"
        case .refresh: "refresh"
        case .backfill: "backfill"
        }
    }
}
