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

    /// `2024-05-01T12:00:00.123Z`: UTC with milliseconds.
    package static func stringWithMilliseconds(_ date: Date) -> String {
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
