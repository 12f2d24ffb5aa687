import Dispatch
import Foundation
import Logging
import Synchronization
import WatcherCore

#if canImport(Glibc)
    import Glibc
#endif

/// Appends events as JSON Lines to a file, fsyncs per its policy and rotates by size (`path.1` … `path.N`).
///
/// Each event id is written once, even across a crash: at open it cuts a line torn by a kill and remembers the
/// ids of the last lines (also of `path.1` when the file was just rotated); the first events redelivered after
/// a restart that are already there are acknowledged without writing them again.
public final class FileSink: ManagedSink {
    /// Lines whose ids are remembered at open: more than the two batches a crash can leave uncommitted.
    static let rememberedLines = 2048

    private struct State {
        var fd: Int32
        var size: Int
        var recentIDs: Set<String>
        var dirty = false
        var lastSync: Duration = .zero
        var fsyncs = 0
    }

    public let id: String
    let options: FileSinkPlugin.Options
    let logger: Logger?
    private let elapsed: @Sendable () -> Duration
    private let state: Synchronization.Mutex<State>
    /// Writes and fsyncs run here, off the cooperative thread pool (a slow disk must not stall other tasks).
    private let queue: DispatchQueue

    /// Opens (creating, mode 0600) the file for appending, repairs a torn last line and reads the last ids.
    /// - Parameters:
    ///   - id: the config id.
    ///   - options: path, fsync policy, rotation.
    ///   - logger: for repairs and rotation failures.
    ///   - time: measures the fsync interval.
    /// - Throws: ``PluginError`` naming the path when it cannot be opened.
    public init(
        id: String,
        options: FileSinkPlugin.Options,
        logger: Logger? = nil,
        time: TimeSource
    ) throws {
        self.id = id
        self.options = options
        self.logger = logger
        self.elapsed = { time.elapsed }
        let directory = URL(fileURLWithPath: options.path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fd = open(options.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw PluginError(
                message: "file sink \(id): cannot open \(options.path): \(String(cString: strerror(errno)))"
            )
        }
        var info = stat()
        let found = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        let size = FileTail.repair(fd: fd, size: found)
        if size < found {
            logger?.notice(
                "cut a torn last line left by a crash",
                metadata: ["path": "\(options.path)", "bytes": "\(found - size)"]
            )
        }
        var (ids, exhausted) = FileTail.lastIDs(fd: fd, size: size, count: Self.rememberedLines)
        if exhausted, options.keep > 0 {
            ids += FileTail.lastIDs(path: "\(options.path).1", count: Self.rememberedLines - ids.count)
        }
        state = Synchronization.Mutex(State(fd: fd, size: size, recentIDs: Set(ids)))
        queue = DispatchQueue(label: "watcher.file-sink.\(id)")
    }

    deinit {
        state.withLock { state in if state.fd >= 0 { Glibc.close(state.fd) } }
    }

    /// fsync calls made so far (for tests and metrics).
    public var fsyncCount: Int { state.withLock { $0.fsyncs } }

    public func deliver(_ events: [SinkEvent]) async -> [DeliveryOutcome] {
        await onQueue { $0.deliver(events, &$1) }
    }

    /// fsyncs pending data once the policy's interval has passed.
    public func idle() async {
        guard case .interval(let interval) = options.fsync else { return }
        let now = elapsed()
        guard state.withLock({ $0.dirty && now - $0.lastSync >= interval }) else { return }
        await onQueue { sink, state in if state.dirty { sink.sync(&state) } }
    }

    /// fsyncs pending data and closes the file.
    public func close() async {
        await onQueue { sink, state in
            guard state.fd >= 0 else { return }
            if state.dirty { sink.sync(&state) }
            Glibc.close(state.fd)
            state.fd = -1
        }
    }

    /// Runs `body` with the state on the sink's queue.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable (FileSink, inout State) -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.state.withLock { body(self, &$0) }) }
        }
    }

    private func deliver(_ events: [SinkEvent], _ state: inout State) -> [DeliveryOutcome] {
        var outcomes: [DeliveryOutcome] = []
        var buffer: [UInt8] = []
        var pending: [Int] = []  // buffer end offset of each event waiting in `buffer`
        func flush() -> String? {
            guard !buffer.isEmpty else { return nil }
            let (written, error) = write(buffer, &state)
            let done = pending.prefix { $0 <= written }.count
            outcomes += Array(repeating: .delivered, count: done)
            if let error {
                let kept = done == 0 ? 0 : pending[done - 1]
                if written > kept { _ = ftruncate(state.fd, off_t(state.size - (written - kept))) }
                state.size -= written - kept
                return error
            }
            buffer.removeAll(keepingCapacity: true)
            pending.removeAll(keepingCapacity: true)
            return nil
        }
        var failure: String?
        for event in events {
            if !state.recentIDs.isEmpty {
                if state.recentIDs.remove(event.id) != nil {
                    if let error = flush() {
                        failure = error
                        break
                    }
                    outcomes.append(.delivered)
                    continue
                }
                state.recentIDs.removeAll()
            }
            let length = event.body.count + 1
            if state.size + buffer.count > 0, state.size + buffer.count + length > options.maxBytes {
                if let error = flush() ?? rotate(&state) {
                    failure = error
                    break
                }
            }
            buffer += event.body
            buffer.append(0x0A)
            pending.append(buffer.count)
        }
        if failure == nil { failure = flush() }
        if state.dirty {
            switch options.fsync {
            case .always: sync(&state)
            case .interval(let interval): if elapsed() - state.lastSync >= interval { sync(&state) }
            }
        }
        if let failure {
            outcomes.append(.retry(after: nil, reason: failure))
            let rest = events.count - outcomes.count
            outcomes += Array(repeating: .retry(after: nil, reason: "an earlier event is pending"), count: rest)
        }
        return outcomes
    }

    /// Appends `bytes`; returns how many were written and the error that stopped it.
    private func write(_ bytes: [UInt8], _ state: inout State) -> (Int, String?) {
        if state.fd < 0 { reopen(&state) }
        guard state.fd >= 0 else { return (0, "cannot open \(options.path): \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < bytes.count {
            let fd = state.fd
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                state.size += offset
                state.dirty = state.dirty || offset > 0
                return (offset, "write to \(options.path) failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        state.size += offset
        state.dirty = true
        return (offset, nil)
    }

    private func sync(_ state: inout State) {
        guard state.fd >= 0 else { return }
        fsync(state.fd)
        state.fsyncs += 1
        state.dirty = false
        state.lastSync = elapsed()
    }

    /// Renames `path` to `path.1`, shifting older files up and dropping those past `keep`, then reopens `path`.
    private func rotate(_ state: inout State) -> String? {
        if state.fd >= 0 {
            sync(&state)
            Glibc.close(state.fd)
            state.fd = -1
        }
        let path = options.path
        if options.keep == 0 {
            unlink(path)
        } else {
            unlink("\(path).\(options.keep)")
            for index in stride(from: options.keep - 1, through: 1, by: -1) {
                rename("\(path).\(index)", "\(path).\(index + 1)")
            }
            rename(path, "\(path).1")
        }
        reopen(&state)
        guard state.fd >= 0 else {
            let error = "cannot reopen \(path) after rotation: \(String(cString: strerror(errno)))"
            logger?.error("file sink rotation failed", metadata: ["sink": "\(id)", "error": "\(error)"])
            return error
        }
        return nil
    }

    private func reopen(_ state: inout State) {
        state.fd = open(options.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        var info = stat()
        state.size = state.fd >= 0 && fstat(state.fd, &info) == 0 ? Int(info.st_size) : 0
    }
}
