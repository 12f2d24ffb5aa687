import Synchronization
import WatcherBitcoin
import WatcherCore

/// What the provider keeps between calls: decoded raw transactions (parents are asked for again and again) and
/// the headers of heights it has read. Bounded: past `capacity` entries a map is emptied and refills on demand.
final class ElectrumCache: Sendable {
    /// A header as the provider uses it.
    struct Header: Sendable, Hashable {
        var height: Int
        var hash: String
        var header: RawBlockHeader

        var ref: BlockRef { BlockRef(height: height, hash: hash) }
    }

    private let transactions = Mutex<[String: Transaction]>([:])
    private let headers = Mutex<[Int: Header]>([:])
    private let heights = Mutex<[String: Int]>([:])
    let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    func transaction(_ txid: String) -> Transaction? { transactions.withLock { $0[txid] } }

    func store(_ tx: Transaction, txid: String) {
        transactions.withLock { map in
            if map.count >= capacity { map.removeAll(keepingCapacity: true) }
            map[txid] = tx
        }
    }

    /// The header read at `height`, unless a reorg may have replaced it (the caller drops stale ones).
    func header(at height: Int) -> Header? { headers.withLock { $0[height] } }

    /// The height of a header hash seen.
    func height(of hash: String) -> Int? { heights.withLock { $0[hash] } }

    func store(_ header: Header) {
        headers.withLock { map in
            if map.count >= capacity { map.removeAll(keepingCapacity: true) }
            map[header.height] = header
        }
        heights.withLock { map in
            if map.count >= capacity { map.removeAll(keepingCapacity: true) }
            map[header.hash] = header.height
        }
    }

    /// Forgets headers at and above `height` (a new tip there may be another branch).
    func dropHeaders(from height: Int) {
        headers.withLock { map in map = map.filter { $0.key < height } }
    }
}
