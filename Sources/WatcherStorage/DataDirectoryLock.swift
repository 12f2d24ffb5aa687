import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on a data directory for the lifetime of one `watcher run`: `flock` on `watcher.lock`, which
/// holds the pid for the message a second daemon prints. The kernel drops the lock when the process dies, so a
/// crash never leaves a stale lock. Read commands do not take it.
public final class DataDirectoryLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor: Int32

    /// Takes the lock of the data directory `directory`, creating the directory if needed.
    /// - Throws: ``StorageError/locked(path:holder:)`` when another process holds it.
    public init(directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw StorageError.notADirectory(path: directory)
        }
        try FileManager.default.createDirectory(
            atPath: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        path = directory + "/watcher.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(descriptor)
            close(descriptor)
            throw StorageError.locked(path: directory, holder: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    /// The pid of the daemon holding the lock of `directory`, or `nil` when none holds it (no lock file, or a lock
    /// nobody holds: the kernel drops it when its process dies).
    public static func holderPID(directory: String) -> Int32? {
        let descriptor = open(directory + "/watcher.lock", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return holder(descriptor).flatMap { Int32($0) }
    }

    /// Removes `directory` when it holds nothing but the lock file: what a start that could not open its store
    /// leaves in a directory it created.
    public static func removeUnused(directory: String) {
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard contents.allSatisfy({ $0 == "watcher.lock" }) else { return }
        unlink(directory + "/watcher.lock")
        rmdir(directory)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The pid written by the holder, if readable.
    private static func holder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
