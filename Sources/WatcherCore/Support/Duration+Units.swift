import Foundation

// The one home of the `Duration` → number conversions (rates, display, timestamps, timeouts).
extension Duration {
    /// The duration in seconds as a floating-point value, for rates, display and `Date` arithmetic.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in seconds as a `TimeInterval` (signature timestamps, retry times, retention).
    public var timeInterval: TimeInterval { seconds }

    /// Whole nanoseconds, truncated.
    public var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// Whole milliseconds, truncated.
    public var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
