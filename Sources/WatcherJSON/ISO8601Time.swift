import Foundation
import Synchronization

/// The ISO 8601 times the watcher writes and reads, with formatters made once: a formatter is costly to create,
/// and `ISO8601DateFormatter` is not `Sendable`, so each one sits behind its own lock.
package enum ISO8601Time {
    private static let wholeSeconds = Mutex(formatter([.withInternetDateTime]))
    private static let milliseconds = Mutex(formatter([.withInternetDateTime, .withFractionalSeconds]))

    /// `2024-05-01T12:00:00Z`: UTC, whole seconds.
    package static func string(_ date: Date) -> String {
        wholeSeconds.withLock { $0.string(from: date) }
    }

    /// `2024-05-01T12:00:00.123Z`: UTC with milliseconds (rounded to the nearest, a half up, as
    /// `ISO8601DateFormatter` writes them: 62.5 ms is .063, −62.5 ms is .938 of the second before). Every event's `time` is one: computed with integer arithmetic (days to a civil date, H.
    /// Hinnant's algorithm), not through the formatter, which costs several times more under its lock. Dates
    /// before 1600 (the formatter switches to the Julian calendar before 1582) or after 9999 go through the
    /// formatter.
    package static func stringWithMilliseconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds > -11_676_096_000, seconds < 253_402_300_799 else {
            return milliseconds.withLock { $0.string(from: date) }
        }
        let millis = Int64((seconds * 1000 + 0.5).rounded(.down))
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let inDay = millis - days * 86_400_000
        let (year, month, day) = civil(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(inDay / 3_600_000, 2) + ":" + pad(inDay / 60_000 % 60, 2) + ":" + pad(inDay / 1000 % 60, 2)
        return text + "." + pad(inDay % 1000, 3) + "Z"
    }

    /// The civil date (proleptic Gregorian) of a count of days since 1970-01-01.
    static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Through the formatter (what ``stringWithMilliseconds(_:)`` is checked against).
    package static func formattedWithMilliseconds(_ date: Date) -> String {
        milliseconds.withLock { $0.string(from: date) }
    }

    /// Parses an RFC 3339 internet time without fractional seconds, with `Z` or an offset.
    package static func date(_ text: String) -> Date? {
        wholeSeconds.withLock { $0.date(from: text) }
    }

    private static func formatter(_ options: ISO8601DateFormatter.Options) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = options
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }
}
