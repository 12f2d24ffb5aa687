/// How an ``Environment`` is opened.
public struct EnvironmentOptions: Sendable, Equatable {
    /// How commits reach the disk.
    public enum Durability: String, Sendable, Equatable, CaseIterable {
        /// Every commit is flushed, data and meta page (LMDB's default). Nothing committed is lost.
        case full
        /// `MDB_NOMETASYNC`: the meta page is not flushed per commit; an OS crash can lose the last commit,
        /// never integrity. A process crash loses nothing.
        case noMetaSync = "nometasync"
    }

    /// The initial map size in bytes (address space, not disk). At open the map is at least twice the used size.
    public var mapSize: Int
    /// How large the map may grow when a write finds it full. The config setting is `storage.maxMapSize`.
    public var maxMapSize: Int
    /// Concurrent read transactions across all processes.
    public var maxReaders: UInt32
    /// Named databases.
    public var maxDatabases: UInt32
    /// Commit durability.
    public var durability: Durability
    /// Open without the right to write (for inspection); the environment must exist.
    public var readOnly: Bool

    /// Creates options; the defaults suit the daemon.
    public init(
        mapSize: Int = 256 << 20,
        maxMapSize: Int = 16 << 30,
        maxReaders: UInt32 = 126,
        maxDatabases: UInt32 = 32,
        durability: Durability = .full,
        readOnly: Bool = false
    ) {
        self.mapSize = mapSize
        self.maxMapSize = max(mapSize, maxMapSize)
        self.maxReaders = maxReaders
        self.maxDatabases = maxDatabases
        self.durability = durability
        self.readOnly = readOnly
    }
}
