import Foundation
import WatcherCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes events to standard output: one JSON line each (`jsonl`), or a human line (`pretty`, coloured on a TTY).
public struct StdoutSink: Sink {
    public let id: String
    let jsonl: Bool
    let color: Bool
    let write: @Sendable ([UInt8]) -> String?

    /// Creates the sink.
    /// - Parameters:
    ///   - id: the config id.
    ///   - options: format and colour.
    ///   - write: where text goes, returning an error message on failure; defaults to standard output.
    public init(id: String, options: StdoutSinkPlugin.Options, write: (@Sendable ([UInt8]) -> String?)? = nil) {
        self.id = id
        self.jsonl = options.format == "jsonl"
        self.color = options.color == "always" || (options.color == "auto" && isatty(STDOUT_FILENO) == 1)
        self.write = write ?? Self.standardOutput
    }

    public func deliver(_ events: [SinkEvent]) async -> [DeliveryOutcome] {
        var bytes: [UInt8] = []
        for event in events {
            if jsonl {
                bytes += event.body
            } else {
                bytes += Array(PrettyEventLine.render(event, color: color).utf8)
            }
            bytes.append(0x0A)
        }
        if let error = write(bytes) {
            return Array(repeating: .retry(after: nil, reason: error), count: events.count)
        }
        return Array(repeating: .delivered, count: events.count)
    }

    /// Writes all of `bytes` to file descriptor 1.
    static func standardOutput(_ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return "write to standard output failed: \(String(cString: strerror(errno)))"
            }
            offset += written
        }
        return nil
    }
}
