import Foundation

/// Parses `Retry-After`: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// The delay the header asks for, or `nil` when it cannot be read. Dates in the past give zero.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) {
                return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
            }
        }
        return nil
    }
}
