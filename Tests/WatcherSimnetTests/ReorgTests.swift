import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// After a reorg every endpoint serves the new branch.
@Suite("Reorgs over HTTP")
struct ReorgTests {
    @Test func everyEndpointAgreesOnTheNewBranch() async throws {
        try await Simnet.with(SimnetConfiguration(seed: 21)) { simnet in
            try await simnet.mine(count: 3)
            let before = await simnet.chain()
            let oldTip = await simnet.tip()
            // The replaced blocks' transactions, to check where each one went.
            let oldTxids = before.blocks.suffix(3).flatMap { $0.txids.dropFirst() }

            let replaced = try await simnet.reorg(depth: 3)
            #expect(replaced.map(\.height) == [oldTip.height - 2, oldTip.height - 1, oldTip.height])
            #expect(replaced.allSatisfy { $0.oldHash != $0.newHash })
            let tip = await simnet.tip()
            #expect(tip.height == oldTip.height && tip.hash == replaced.last?.newHash)

            // Blockbook: block-index, block by height and by hash, previousBlockHash linkage, status.
            for row in replaced {
                let index = try await SimnetHarness.get(simnet, "/api/v2/block-index/\(row.height)").json()
                #expect(index["blockHash"]?.stringValue == row.newHash)
                let block = try await SimnetHarness.get(simnet, "/api/v2/block/\(row.height)").json()
                #expect(block["hash"]?.stringValue == row.newHash)
                let parent = try await SimnetHarness.get(simnet, "/api/v2/block-index/\(row.height - 1)").json()
                #expect(block["previousBlockHash"]?.stringValue == parent["blockHash"]?.stringValue)
                let stale = try await SimnetHarness.get(simnet, "/api/v2/block/\(row.oldHash)")
                #expect(stale.status == 400 && stale.text == #"{"error":"Block not found"}"#)
            }
            let tipIndex = try await SimnetHarness.get(simnet, "/api/v2/block-index/").json()
            #expect(tipIndex["blockHash"]?.stringValue == tip.hash)
            let status = try await SimnetHarness.get(simnet, "/api/").json()
            #expect(status["backend"]?["bestBlockHash"]?.stringValue == tip.hash)
            #expect(status["blockbook"]?["bestHeight"]?.int == tip.height)

            // blockchain.info style: latestblock and multiaddr's info.latest_block.
            let latest = try await SimnetHarness.get(simnet, "/latestblock").json()
            #expect(latest["hash"]?.stringValue == tip.hash && latest["height"]?.int == tip.height)
            let truths = await simnet.addresses()
            let active = truths.prefix(3).map(\.address).joined(separator: "|")
            let multi = try await SimnetHarness.get(simnet, "/multiaddr?active=\(active)").json()
            #expect(multi["info"]?["latest_block"]?["hash"]?.stringValue == tip.hash)

            // Each replaced transaction is re-confirmed on the new branch, back in the mempool, or gone.
            let after = await simnet.chain()
            var fates: [String: Int] = [:]
            for txid in oldTxids {
                let answer = try await SimnetHarness.get(simnet, "/api/v2/tx/\(txid)")
                if let location = after.location(of: txid) {
                    let body = try answer.json()
                    #expect(body["blockHash"]?.stringValue == after.block(height: location.height)?.hash)
                    fates["reconfirmed", default: 0] += 1
                } else if after.mempool.contains(txid) {
                    #expect(try answer.json()["blockHeight"]?.int == -1)
                    fates["mempool", default: 0] += 1
                } else {
                    #expect(answer.status == 400 && answer.text.contains("not found"))
                    fates["vanished", default: 0] += 1
                }
            }
            #expect(fates.count == 3, "all three fates occur for seed 21: \(fates)")

            // Balances on both address APIs match the truths of the new branch.
            for truth in truths {
                let blockbook = try await SimnetHarness.get(simnet, "/api/v2/address/\(truth.address)?details=tokens")
                    .json()
                #expect(blockbook["balance"]?.stringValue == String(truth.confirmedBalanceSat))
                #expect(blockbook["unconfirmedBalance"]?.stringValue == String(truth.unconfirmedBalanceSat))
                #expect(blockbook["txs"]?.int == truth.confirmedTxCount)
                #expect(blockbook["unconfirmedTxs"]?.int == truth.unconfirmedTxCount)
                let rawaddr = try await SimnetHarness.get(simnet, "/rawaddr/\(truth.address)?limit=50").json()
                #expect(rawaddr["final_balance"]?.int == Int(truth.finalBalanceSat))
                #expect(rawaddr["n_tx"]?.int == truth.confirmedTxCount + truth.unconfirmedTxCount)
                let newest = rawaddr["txs"]?[0]?["balance"]?.int
                #expect(newest == nil || newest == Int(truth.finalBalanceSat), "txs[0].balance == final_balance")
            }
        }
    }
}
