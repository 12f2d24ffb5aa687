import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// An error returned by liblmdb, with the operation that failed.
public struct LMDBError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The LMDB or errno return code.
    public let code: Int32
    /// What the wrapper was doing, e.g. `mdb_txn_commit`.
    public let operation: String
    /// Extra context for the user, e.g. which setting to raise.
    public let hint: String?

    /// Creates an error from a return code.
    @inlinable
    public init(code: Int32, operation: String, hint: String? = nil) {
        self.code = code
        self.operation = operation
        self.hint = hint
    }

    /// LMDB's own message for the code.
    public var message: String { String(cString: mdb_strerror(code)) }

    public var description: String {
        var text = "LMDB \(operation) failed: \(message) (code \(code))"
        if let hint { text += "; \(hint)" }
        return text
    }

    /// `MDB_MAP_FULL`: the map (maximum database size) is exhausted.
    public var isMapFull: Bool { code == MDB_MAP_FULL }
    /// `MDB_MAP_RESIZED`: another process grew the map.
    public var isMapResized: Bool { code == MDB_MAP_RESIZED }

    /// Throws when `code` is not `MDB_SUCCESS`.
    @inlinable
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(LMDBError) {
        if code != 0 { throw LMDBError(code: code, operation: operation()) }
    }
}
