import Testing
import WatcherCore

/// `watcher block <height|hash>` and `/api/blocks/{id}` read their argument through ``BlockID``.
struct BlockIDTests {
    @Test func aHashOfDecimalDigitsIsAHashNotAHeight() {
        let digits = String(repeating: "0", count: 54) + "1234567890"
        #expect(BlockID(digits) == .hash(digits))
        let hex = "00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054"
        #expect(BlockID(hex.uppercased()) == .hash(hex))
    }

    @Test func heightsAndNonsense() {
        #expect(BlockID("0") == .height(0))
        #expect(BlockID("840000") == .height(840_000))
        #expect(BlockID("-1") == nil)
        #expect(BlockID("12345678901") == nil)
        #expect(BlockID("xyz") == nil)
        #expect(BlockID(String(repeating: "g", count: 64)) == nil)
    }
}
