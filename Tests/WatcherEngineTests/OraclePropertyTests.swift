import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherStorage

@testable import WatcherEngine
@testable import WatcherRules
@testable import WatcherSimnet

/// Random histories of payments, blocks, reorgs and mempool drops, with the simnet's ``ChainModel`` as the
/// oracle: replaying the events the reducers emit must give the oracle's balances and confirmation counts
/// exactly, with no fact announced twice. Each case is one seed; a failure names it, and
/// `swift test --filter OraclePropertyTests` replays it exactly.
struct OraclePropertyTests {
    /// 40 seeds in `make test`; `ORACLE_SEEDS=2000 swift test --filter OraclePropertyTests` for a long hunt.
    static let seeds: [UInt64] = Array(
        1...(ProcessInfo.processInfo.environment["ORACLE_SEEDS"].flatMap(UInt64.init) ?? 40)
    )

    @Test(arguments: seeds)
    func replayedEventsMatchTheOracle(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        // Gaps in the chain memory too: a third of the cases announce no missed block, a third one.
        let maxBackfill = [0, 1, 100][Int(seed % 3)]
        var model = ChainModel(
            parameters: ChainParameters(seed: seed, txsPerBlock: 6, mempoolTxsPerBlock: 1, fundedAddressCount: 6)
        )
        let followed = (0..<4).map { _ in SimAddress.random(rng.element(of: [.p2wpkh, .p2tr, .p2pkh]), using: &rng) }
        var engine = OracleEngine(model: model, followed: followed.map(\.string))
        try engine.pollChain(maxBackfill: maxBackfill)
        for address in engine.followed { engine.pollAddress(address) }
        // The history confirmed before the first look is the silent baseline: the steps add up to the rest.
        var baselines: [String: Int64] = [:]
        for address in engine.followed {
            let steps = Self.steps(engine.events, address)
            baselines[address] =
                (engine.states[address]?.summary?.balanceSat ?? 0) - Self.sum(steps, "confirmedDeltaSat")
        }
        for _ in 0..<40 {
            switch rng.next(below: 10) {
            case 0...3:
                let amount = rng.next(in: Int64(1_000)...2_000_000)
                _ = try? model.pay(to: rng.element(of: followed), amountSat: amount)
            case 4...6:
                _ = try model.mine(count: rng.next(in: 1...2))
            case 7...8:
                _ = try? model.reorg(depth: rng.next(in: 1...min(4, model.blocks.count - 2)))
            default:
                break
            }
            engine.model = model
            // Polls in a random order: an address may see a block before the chain walk does.
            var order = [-1] + Array(engine.followed.indices)
            for index in order.indices.reversed() { order.swapAt(index, rng.next(below: index + 1)) }
            for item in order where rng.chance(0.8) {
                if item < 0 {
                    try engine.pollChain(maxBackfill: maxBackfill)
                } else {
                    engine.pollAddress(engine.followed[item])
                }
            }
        }
        // Quiet: every watcher job runs, twice, on the final chain.
        for _ in 0..<2 {
            try engine.pollChain(maxBackfill: maxBackfill)
            for address in engine.followed { engine.pollAddress(address) }
        }
        try check(engine, baselines: baselines, seed: seed)
    }

    /// The `address.balance.changed` events of `address`.
    static func steps(_ events: [NewEvent], _ address: String) -> [NewEvent] {
        events.filter { $0.type == "address.balance.changed" && $0.data?["address"] == .string(address) }
    }

    /// The sum of an integer field of `events`.
    static func sum(_ events: [NewEvent], _ key: String) -> Int64 {
        events.reduce(0) { total, event in
            guard case .number(let text)? = event.data?[key] else { return total }
            return total + (Int64(text) ?? 0)
        }
    }

    func check(_ engine: OracleEngine, baselines: [String: Int64], seed: UInt64) throws {
        let facts = engine.events.map(\.id)
        #expect(Set(facts).count == facts.count, "seed \(seed): a fact was announced twice")
        let tip = engine.model.tip.height
        for address in engine.followed {
            let view = engine.model.view(of: address)
            let mine = engine.events.filter { $0.data?["address"] == .string(address) }
            // Balances: the steps of balance.changed add up to the truth less the silent baseline (the confirmed
            // history before the first look; the mempool then is announced).
            let steps = Self.steps(engine.events, address)
            let baseline = baselines[address] ?? 0
            #expect(
                Self.sum(steps, "confirmedDeltaSat") + baseline == view.truth.confirmedBalanceSat,
                "seed \(seed): confirmed balance of \(address)"
            )
            #expect(
                Self.sum(steps, "unconfirmedDeltaSat") == view.truth.unconfirmedBalanceSat,
                "seed \(seed): unconfirmed balance of \(address)"
            )
            #expect(
                Self.sum(steps, "deltaSat") + baseline == view.truth.confirmedBalanceSat
                    + view.truth.unconfirmedBalanceSat
            )
            // A confirmed step's balance is the chain's: the last live one in chain order holds the truth.
            let live = steps.filter { step in
                guard step.data?["state"] == .string("confirmed"), let hash = step.data?["blockHash"]?.stringValue,
                    let txid = step.data?["txid"]?.stringValue, let location = engine.model.location(of: txid)
                else { return false }
                return engine.model.block(height: location.height)?.hash == hash
            }
            let last = live.max { a, b in
                func key(_ e: NewEvent) -> (Int, String) {
                    (Int(e.data?["blockHeight"]?.serialized() ?? "") ?? 0, e.data?["txid"]?.stringValue ?? "")
                }
                return key(a) < key(b)
            }
            if let last, view.truth.confirmedTxCount > 0,
                let height = Int(last.data?["blockHeight"]?.serialized() ?? ""),
                !view.newestFirst.contains(where: { (engine.model.location(of: $0)?.height ?? -1) > height })
            {
                #expect(
                    last.data?["balanceSat"] == .number("\(view.truth.confirmedBalanceSat)"),
                    "seed \(seed): the balance after the last confirmed step of \(address)"
                )
            }
            // Confirmations: every live confirmation is the oracle's, every other one was reverted.
            for txid in Set(mine.compactMap { $0.data?["txid"]?.stringValue }) {
                let events = mine.filter { $0.data?["txid"] == .string(txid) }
                func blocks(_ type: String) -> [String] {
                    events.filter { $0.type == type }.compactMap { $0.data?["blockHash"]?.stringValue }
                }
                let live = Set(blocks("address.tx.confirmed")).subtracting(blocks("address.tx.reverted"))
                if let location = engine.model.location(of: txid),
                    let block = engine.model.block(height: location.height)
                {
                    #expect(live == [block.hash], "seed \(seed): \(txid) should be confirmed in \(block.hash) only")
                    let count = tip - location.height + 1
                    let announced = events.filter {
                        $0.type == "address.tx.confirmations" && $0.data?["blockHash"] == .string(block.hash)
                    }.compactMap { $0.data?["confirmations"] }
                    let expected = engine.thresholds.filter { $0 <= count }.map { JSONValue.number("\($0)") }
                    #expect(announced == expected, "seed \(seed): thresholds of \(txid)")
                } else {
                    #expect(live.isEmpty, "seed \(seed): \(txid) is not confirmed but a confirmation stands")
                    if engine.model.transaction(txid) == nil,
                        events.contains(where: { $0.type == "address.tx.unconfirmed" })
                    {
                        #expect(
                            events.contains { $0.type == "address.tx.replaced" },
                            "seed \(seed): \(txid) vanished without address.tx.replaced"
                        )
                    }
                }
            }
        }
    }
}
