import CLMDB

/// A named database (an LMDB "DBI") inside an ``Environment``. Handles are opened once at start-up.
public struct Database: Sendable, Hashable {
    /// The name given at open.
    public let name: String
    @usableFromInline let dbi: MDB_dbi

    /// The raw handle, for benchmarks.
    package var rawDBI: MDB_dbi { dbi }
}
