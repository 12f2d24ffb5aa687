import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// Blocks with more than 1000 transactions and long address histories page like Blockbook.
@Suite("Paging")
struct PagingTests {
    @Test func bigBlocksPageByThousandAndClampPastTheEnd() async throws {
        let chain = ChainParameters(seed: 4, initialBlocks: 2, txsPerBlock: 2_100, mempoolTxsPerBlock: 0)
        try await Simnet.with(SimnetConfiguration(chain: chain)) { simnet in
            var seen: [String] = []
            for page in 1...3 {
                let body = try await SimnetHarness.get(simnet, "/api/v2/block/800001?page=\(page)").json()
                #expect(body["page"]?.int == page && body["totalPages"]?.int == 3 && body["itemsOnPage"]?.int == 1000)
                #expect(body["txCount"]?.int == 2_100)
                seen += body["txs"]?.arrayValue?.compactMap { $0["txid"]?.stringValue } ?? []
            }
            #expect(seen.count == 2_100 && Set(seen).count == 2_100)
            let expected = (await simnet.chain()).block(height: 800_001)?.txids
            #expect(seen == expected)
            let clamped = try await SimnetHarness.get(simnet, "/api/v2/block/800001?page=9").json()
            #expect(clamped["page"]?.int == 3 && clamped["txs"]?.arrayValue?.count == 100)
        }
    }

    @Test func addressHistoryPagesConcatenateToTheWholeHistory() async throws {
        try await Simnet.with { simnet in
            try await simnet.mine(count: 4)
            let busiest = try #require(await simnet.addresses().max { $0.confirmedTxCount < $1.confirmedTxCount })
            let total = busiest.confirmedTxCount + busiest.unconfirmedTxCount
            #expect(total > 10)
            var txids: [String] = []
            var page = 1
            while true {
                let body = try await SimnetHarness.get(
                    simnet,
                    "/api/v2/address/\(busiest.address)?page=\(page)&pageSize=7"
                ).json()
                txids += body["txids"]?.arrayValue?.compactMap(\.stringValue) ?? []
                if body["page"]?.int == body["totalPages"]?.int { break }
                page += 1
            }
            #expect(txids.count == total && Set(txids).count == total)

            var rawTxids: [String] = []
            for offset in stride(from: 0, to: total, by: 5) {
                let body = try await SimnetHarness.get(simnet, "/rawaddr/\(busiest.address)?limit=5&offset=\(offset)")
                    .json()
                rawTxids += body["txs"]?.arrayValue?.compactMap { $0["hash"]?.stringValue } ?? []
            }
            #expect(rawTxids == txids, "both APIs list newest first")
        }
    }
}
