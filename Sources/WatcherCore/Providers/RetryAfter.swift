import Foundation

/// Parses `Retry-After`: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// The delay the header asks for, or `nil` when it cannot be read. Dates in the past give zero.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
    }
}
