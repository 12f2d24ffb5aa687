import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A 4 MiB tmpfs of its own, mounted in a temporary directory, that a test fills to the last byte and frees again: a
/// real full disk (`ENOSPC` from `write`, and a fault on a mapped page that has no block behind it), for the store's
/// behaviour on one. Mounting needs root (`CAP_SYS_ADMIN`), which the tests have here and on CI; without it the test
/// fails and says so, as a missing fixture would: a full disk cannot be simulated without a filesystem that fills
/// (`RLIMIT_FSIZE` stops `write` but not a mapped page, which is where LMDB faults).
package final class SmallFilesystem: Sendable {
    /// The mount point.
    package let path: String
    /// The file that takes up the free space.
    private var filler: String { path + "/filler" }

    private init(path: String) { self.path = path }

    /// Mounts a tmpfs of `megabytes` in a fresh temporary directory.
    /// - Throws: ``ProcessRunnerError`` naming what is missing when the mount is refused.
    package static func mount(megabytes: Int = 4) async throws -> SmallFilesystem {
        let path = NSTemporaryDirectory() + "watcher-tmpfs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = try await ProcessRunner.run([
            "/bin/mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path,
        ])
        guard mount.status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw ProcessRunnerError(
                description: "this test needs a small tmpfs (a real full disk) and could not mount one (run the tests "
                    + "as root, or with CAP_SYS_ADMIN, as CI does): mount exited \(mount.status): \(mount.output)"
            )
        }
        return SmallFilesystem(path: path)
    }

    /// Writes the filler until the filesystem has no byte left (as `dd if=/dev/zero of=filler` does).
    package func fill() throws {
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 { continue }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && errno != ENOSPC { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            break
        }
        // A last partial page: down to the byte.
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) == 1 {}
    }

    /// Removes the filler: the space is free again.
    package func free() throws { try FileManager.default.removeItem(atPath: filler) }

    /// Unmounts it and removes the mount point.
    package func unmount() async {
        _ = try? await ProcessRunner.run(["/bin/umount", "-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs `body` with a fresh mount, unmounted afterwards whether `body` throws or not.
    package static func with<T: Sendable>(
        megabytes: Int = 4,
        _ body: (SmallFilesystem) async throws -> T
    ) async throws -> T {
        let filesystem = try await mount(megabytes: megabytes)
        do {
            let result = try await body(filesystem)
            await filesystem.unmount()
            return result
        } catch {
            await filesystem.unmount()
            throw error
        }
    }
}
