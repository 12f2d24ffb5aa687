import Foundation
import WatcherCore
import WatcherJSON

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the end of a JSON Lines file: repairs a line torn by a crash and finds the ids of the last lines, so a
/// reopened ``FileSink`` does not write again what it wrote before the crash but after the last cursor commit.
enum FileTail {
    /// How much of a file's end is read to find its last lines.
    static let window = 8 << 20

    /// Truncates a last line without its newline (a write cut short by a kill) and returns the new size.
    static func repair(fd: Int32, size: Int) -> Int {
        guard size > 0 else { return 0 }
        let tail = read(fd: fd, size: size, bytes: min(size, window))
        guard tail.last != 0x0A else { return size }
        let keep = tail.lastIndex(of: 0x0A).map { size - tail.count + $0 + 1 } ?? (tail.count == size ? 0 : size)
        guard keep < size, ftruncate(fd, off_t(keep)) == 0 else { return size }
        return keep
    }

    /// The ids (the envelope's `id`) of up to `count` last complete lines of the open file, newest last.
    /// - Returns: the ids, and whether the file held fewer than `count` lines (so an older file may hold more).
    static func lastIDs(fd: Int32, size: Int, count: Int) -> (ids: [String], exhausted: Bool) {
        guard size > 0, count > 0 else { return ([], true) }
        let tail = read(fd: fd, size: size, bytes: min(size, window))
        var lines = tail.split(separator: 0x0A, omittingEmptySubsequences: true)
        let whole = tail.count == size
        if !whole, !lines.isEmpty { lines.removeFirst() }
        let last = lines.suffix(count)
        let ids = last.compactMap { line in (try? JSONValue.parse(line))?["id"]?.stringValue }
        return (ids, whole && lines.count < count)
    }

    /// The ids of up to `count` last lines of the file at `path`, if it exists.
    static func lastIDs(path: String, count: Int) -> [String] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return [] }
        return lastIDs(fd: fd, size: Int(info.st_size), count: count).ids
    }

    /// Reads the last `bytes` of a file of `size` bytes.
    static func read(fd: Int32, size: Int, bytes: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: bytes)
        var done = 0
        while done < bytes {
            let n = buffer[done...].withUnsafeMutableBytes {
                pread(fd, $0.baseAddress, $0.count, off_t(size - bytes + done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return Array(buffer[..<done])
    }
}
