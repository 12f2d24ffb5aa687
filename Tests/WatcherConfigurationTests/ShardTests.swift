import Testing
import WatcherConfiguration
import WatcherCore

/// `--shard K/N`: parsing, a stable partition, and which watches it cuts.
@Suite("Shard")
struct ShardTests {
    @Test func parsesKOverN() {
        #expect(Shard("2/3").map { [$0.index, $0.count] } == [2, 3])
        #expect(Shard("1/1")?.description == "1/1")
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", "", "1/1025"] {
            #expect(Shard(bad) == nil, "\(bad)")
        }
    }

    @Test func everyAddressFallsInExactlyOneShardStably() throws {
        let addresses = (0..<3000).map { "bc1qtest\($0)" }
        let shards = (1...3).compactMap { Shard("\($0)/3") }
        var sizes: [Int] = []
        for address in addresses {
            #expect(shards.filter { $0.contains(address) }.count == 1)
        }
        for shard in shards { sizes.append(addresses.filter(shard.contains).count) }
        #expect(sizes.allSatisfy { (800...1200).contains($0) }, "uneven: \(sizes)")
        // Fixed values: the partition must not change between versions or machines.
        // (Python: int.from_bytes(sha256(address).digest()[:8], "big") % N + 1.)
        #expect(Shard.shard(of: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", count: 3) == 3)
        #expect(Shard.shard(of: "bc1qtest0", count: 7) == 1)
    }
}
