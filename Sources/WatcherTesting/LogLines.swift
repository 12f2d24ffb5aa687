import Foundation
import Logging
import Synchronization

/// Collects what a `Logger` logs, one line per entry (the message, then its metadata as sorted `key=value`s), to check
/// that a state change is logged, and logged once.
///
/// ```swift
/// let lines = LogLines()
/// let scheduler = Scheduler(limits: limits, clock: clock, logger: lines.logger)
/// #expect(lines.count(prefix: "provider degraded") == 1, "\(lines.all)")
/// ```
package final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    /// Whether each line starts with the wall-clock time it was logged at (for a log printed after a failure).
    private let timestamps: Bool

    /// Creates an empty collector.
    package init(timestamps: Bool = false) { self.timestamps = timestamps }

    /// Adds a line.
    package func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// Every line so far, in order.
    package var all: [String] { lines.withLock { $0 } }

    /// How many lines start with `prefix`.
    package func count(prefix: String) -> Int { all.filter { $0.hasPrefix(prefix) }.count }

    /// A logger at `trace` level that writes here.
    package var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let extra = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let time = lines.timestamps ? ["\(Date())", "\(event.level)"] : []
            lines.append((time + [event.message.description] + extra).joined(separator: " "))
        }
    }
}
