import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// The decisions that left the engine for `WatcherRules` in one piece each, on values: headers checked from the top
/// down, the gap an xpub summary asks, a history that confirms anew, the verified history's stamps and the block scan's
/// carried windows.
struct MovedRulesTests {
    static func header(_ height: Int, _ hash: String, parent: String?) -> BlockHeader {
        BlockHeader(
            hash: hash,
            height: height,
            time: Date(timeIntervalSince1970: 1_800_000_000),
            merkleRoot: "m",
            nonce: 0,
            txCount: nil,
            previousHash: parent
        )
    }

    @Test func headersAreRecordedDownFromTheTopUpToTheFirstOfAnotherChain() {
        // The memory knows the tip (h10) only: each header recorded names the hash of the one below.
        var memory = ChainMemory(tip: BlockRef(height: 10, hash: "h10"))
        let added = memory.recordDown([
            Self.header(8, "x8", parent: "x7"),  // not the parent h9 names: another chain, and nothing below it
            Self.header(9, "h9", parent: "h8"),
            Self.header(10, "h10", parent: "h9"),
        ])
        #expect(added.map(\.height) == [10, 9])
        #expect(memory.headers[8] == nil && memory.hash(at: 8) == "h8")
        // Recorded already: not added again.
        #expect(memory.recordDown([Self.header(10, "h10", parent: "h9")]).isEmpty)
    }

    @Test func anXpubSummaryAsksAGapThatReachesTheWholeWindow() {
        let wallet = WalletSummaryReaderTests.wallet  // gap 3
        var state = WalletState(chain: "btc", wallet: "shop", descriptor: "d")
        #expect(WalletWindow.requestGap(state, wallet: wallet, known: []) == 3)
        // Issued up to 9 (derived to 12), nothing used in a block: the provider's window must reach index 12.
        state.receive = WalletState.Window(lastIssued: 9, derivedUpTo: 12)
        #expect(WalletWindow.requestGap(state, wallet: wallet, known: []) == 12)
        // Index 7 used in a block: 12 - 7.
        var used = AddressState(chain: "btc", address: "a7")
        used.wallet = WalletAddressRef(wallet: "shop", branch: .receive, index: 7)
        used.txs["t"] = AddressState.TrackedTx(txid: "t", blockHeight: 100, blockHash: "b", deltaSat: 1)
        #expect(WalletWindow.requestGap(state, wallet: wallet, known: [used]) == 5)
        // Only in the mempool: not used in a block.
        used.txs["t"]?.blockHeight = nil
        #expect(WalletWindow.requestGap(state, wallet: wallet, known: [used]) == 12)
    }

    @Test func aHistoryConfirmsAnewOnlyInABlockTheStateDoesNotHoldItIn() {
        var stored = AddressState(chain: "btc", address: "a")
        stored.txs["t"] = AddressState.TrackedTx(txid: "t", blockHeight: 100, blockHash: "b100", deltaSat: 1)
        let same = AddressTx(txid: "t", blockHeight: 100, blockHash: "b100", time: nil, deltaSat: 1)
        let other = AddressTx(txid: "t", blockHeight: 100, blockHash: "c100", time: nil, deltaSat: 1)
        let mempool = AddressTx(txid: "u", blockHeight: nil, time: nil, deltaSat: 1)
        #expect(!AddressReducer.confirmsAnew([same, mempool], stored: stored))
        #expect(AddressReducer.confirmsAnew([other], stored: stored))
        #expect(AddressReducer.confirmsAnew([same], stored: nil))
    }

    @Test func aVerifiedHistoryStampsItsProvidersAndDecoratesTheEvents() {
        var verified = VerifiedHistory(history: [], lookups: [:], source: "p1")
        verified.verifiedBy["c"] = ["p1", "p2"]
        verified.seenBy["m"] = ["p1", "p3"]
        var state = AddressState(chain: "btc", address: "a")
        state.txs["c"] = AddressState.TrackedTx(txid: "c", blockHeight: 100, blockHash: "b", deltaSat: 1)
        state.txs["m"] = AddressState.TrackedTx(txid: "m", blockHeight: nil, blockHash: nil, deltaSat: 1)
        verified.stamp(&state)
        #expect(state.txs["c"]?.verifiedBy == ["p1", "p2"] && state.txs["m"]?.seenBy == ["p1", "p3"])
        #expect(VerifiedHistory.held("c", height: 100, hash: "b", in: state))
        #expect(VerifiedHistory.held("c", height: 100, hash: nil, in: state))
        #expect(!VerifiedHistory.held("c", height: 100, hash: "z", in: state))
        #expect(!VerifiedHistory.held("m", height: 100, hash: "b", in: state))
        #expect(VerifiedHistory.block(nil) == (nil, nil))
        #expect(VerifiedHistory.block(.block(height: 7, hash: "h", deltaSat: nil)) == (7, "h"))
        // `seenBy` of a mempool event: who reported it, else the source alone.
        let builder = EventBuilder(now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let events = ["m", "n"].map { txid in
            builder.make(
                type: "address.tx.unconfirmed",
                fact: ["btc", "a", txid],
                source: "watcher/w",
                subject: "a",
                data: []
            )
        }
        let seen = verified.decorate(events).map { try? JSONValue.parse($0.body)["data"]?["seenBy"] }
        #expect(seen == [.array([.string("p1"), .string("p3")]), .array([.string("p1")])])
    }
}
