import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// LMDB's `lock.mdb`, given its disk blocks before LMDB maps it. LMDB sizes a new lock file with `ftruncate` (a
/// sparse file) and then writes its header and reader slots through a shared mapping: on a full filesystem the first
/// store to a page with no block behind it is a SIGBUS, which kills the process inside liblmdb. So the file is
/// allocated here with `posix_fallocate`, and a filesystem with no room for it is an error that names the path.
enum LockFile {
    /// The bytes LMDB gives a lock file of `readers` slots: the header (`MDB_txninfo`, three cache lines with the
    /// first slot) and a cache line per further slot, rounded up to whole pages. A larger file only gives LMDB more
    /// reader slots.
    static func size(readers: UInt32) -> Int {
        let bytes = 3 * 64 + (max(Int(readers), 1) - 1) * 64
        return (bytes + 4095) / 4096 * 4096
    }

    /// Allocates `lock.mdb` in `directory` (creating it when missing) before LMDB opens it.
    /// - Parameter fresh: whether the store is new (no `data.mdb`): then a filesystem without room is
    ///   ``StorageError/noSpace(path:)`` and nothing is left behind. An existing store's lock file was in use
    ///   before, so a failure to allocate it is not an error: the store starts as it did.
    /// - Throws: ``StorageError/noSpace(path:)``.
    static func reserve(directory: String, readers: UInt32, fresh: Bool) throws {
        let path = directory + "/lock.mdb"
        let existed = FileManager.default.fileExists(atPath: path)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }  // LMDB's own open reports what is wrong
        let current = max(Int(lseek(descriptor, 0, SEEK_END)), 0)
        let result = posix_fallocate(descriptor, 0, off_t(max(current, size(readers: readers))))
        close(descriptor)
        guard result == ENOSPC || result == EDQUOT, fresh || !existed else { return }
        if !existed { unlink(path) }
        throw StorageError.noSpace(path: directory)
    }

    /// Removes the files a failed first open of a new store left in `directory`.
    static func removeFresh(directory: String) {
        unlink(directory + "/lock.mdb")
        unlink(directory + "/data.mdb")
    }
}
