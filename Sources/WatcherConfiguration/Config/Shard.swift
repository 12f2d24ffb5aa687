import Crypto
import WatcherCore

/// One shard of the followed addresses, `K/N` (1 ≤ K ≤ N): the instance follows the addresses whose hash falls in
/// shard K, so N instances with the same config split the addresses between them.
///
/// The hash is the first 8 bytes of SHA-256 over the address as the config normalizes it, modulo N: the same on
/// every machine and every run. A `wallet` watch is split whole, by the hash of its id: one instance follows all of
/// a wallet's addresses (its gap window is one piece of state). Block-level watches (`blocks`, `tx`, prices) are not split: every instance runs
/// them, and their events, having the same ids, are stored once by an idempotent sink such as `postgres`.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// This instance's shard, 1-based.
    public let index: Int
    /// The number of shards.
    public let count: Int

    /// Parses `K/N`; `nil` unless 1 ≤ K ≤ N ≤ 1024.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...1024).contains(count),
            (1...count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    /// The shard (1-based) `address` falls in, of `count`.
    public static func shard(of address: String, count: Int) -> Int {
        let digest = SHA256.hash(data: Array(address.utf8))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(count)) + 1
    }

    /// Whether this instance follows `address`.
    public func contains(_ address: String) -> Bool {
        Self.shard(of: address, count: count) == index
    }

    /// The watches with each `address` watch cut to this shard's addresses; an address watch left with none is
    /// dropped. A `wallet` watch is kept when its id falls in this shard. Other watches are kept whole.
    public func apply(to watches: [WatchConfig]) -> [WatchConfig] {
        watches.compactMap { watch in
            if watch.kind == .wallet { return contains(watch.id) ? watch : nil }
            guard watch.kind == .address else { return watch }
            var mine = watch
            mine.addresses = watch.addresses.filter { contains($0.address) }
            return mine.addresses.isEmpty ? nil : mine
        }
    }
}
