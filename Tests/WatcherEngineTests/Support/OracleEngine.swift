import Foundation
import WatcherCore
import WatcherStorage
import WatcherTesting

@testable import WatcherEngine
@testable import WatcherRules
@testable import WatcherSimnet

/// The reducers driven as the engine drives them, fed what a provider would answer about a simnet ``ChainModel``:
/// the oracle the property test replays the events against. Values only; no store, no HTTP.
struct OracleEngine {
    var model: ChainModel
    let followed: [String]
    var memory = ChainMemory()
    var states: [String: AddressState] = [:]
    var events: [NewEvent] = []
    let thresholds = [1, 3, 6]
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func entry(_ address: String) -> AddressBook.Entry {
        AddressBook.Entry(address: address, thresholds: thresholds, watch: "w", reorgSafety: 6)
    }

    func context(_ address: String) -> AddressReducer.Context {
        AddressReducer.Context(chain: "btc", entry: entry(address), blockHashes: memory.hashes, now: now)
    }

    func header(_ height: Int) -> BlockHeader? {
        model.block(height: height).map(ChainTruth.header)
    }

    /// One chain poll, as ``ChainDriver`` does it.
    mutating func pollChain(maxBackfill: Int) throws {
        let tip = BlockRef(height: model.tip.height, hash: model.tip.hash)
        var sync = ChainSync(memory: memory, tip: tip, maxBackfill: maxBackfill)
        while case .header(let height) = sync.next() {
            guard let header = header(height) else { throw OracleError.noBlock(height) }
            try sync.receive(header)
        }
        let outcome = sync.outcome
        guard !outcome.unchanged else { return }
        var newChain = outcome.learned
        for height in memory.tip.map({ max(0, ($0.height) - 200)...tip.height }) ?? tip.height...tip.height {
            newChain[height] = model.block(height: height)?.hash
        }
        let floor = ChainReducer.revertFloor(memory, outcome)
        let settings = ChainReducer.Settings(chain: "btc", watch: "tip", announce: true, keepHeaders: 10)
        let (next, blockEvents) = ChainReducer.reduce(memory, outcome, settings: settings, now: now)
        events += blockEvents
        memory = next
        for address in followed {
            guard var state = states[address] else { continue }
            if let fork = floor {
                let emitted: [NewEvent]
                (state, emitted) = AddressReducer.revert(
                    state,
                    fork: fork,
                    newChain: newChain,
                    context: context(address)
                )
                events += emitted
            }
            let crossed: [NewEvent]
            (state, crossed) = AddressReducer.tip(state, height: tip.height, context: context(address))
            events += crossed
            states[address] = state
        }
    }

    /// One address poll, as ``AddressDriver`` does it, with the provider's paging and `after` semantics.
    mutating func pollAddress(_ address: String) {
        let view = model.view(of: address)
        let truth = view.truth
        let summary = AddressSummary(
            address: address,
            balanceSat: truth.confirmedBalanceSat,
            totalReceivedSat: truth.totalReceivedSat,
            totalSentSat: truth.totalSentSat,
            txCount: truth.confirmedTxCount,
            unconfirmedBalanceSat: truth.unconfirmedBalanceSat,
            unconfirmedTxCount: truth.unconfirmedTxCount
        )
        let stored = states[address] ?? AddressState(chain: "btc", address: address)
        let ctx = context(address)
        var history: [AddressTx]?
        var complete = false
        switch AddressReducer.historyRequest(
            stored: stored,
            summary: summary,
            tipHeight: memory.tip?.height,
            context: ctx
        ) {
        case .none: break
        case .empty: (history, complete) = ([], true)
        case .fetch(let limit, let after):
            var all: [AddressTx] = []
            for txid in view.newestFirst {
                if txid == after { break }
                all.append(addressTx(txid, address))
            }
            history = Array(all.prefix(limit))
            complete = all.count < limit
        }
        var lookups: [String: ChainTransaction?] = [:]
        var replacedBlocks: Set<String> = []
        if let history, complete {
            for txid in AddressReducer.dropCandidates(stored, history: history) {
                lookups[txid] = model.transaction(txid).map { _ in chainTx(txid) }
            }
            // As AddressDriver: a confirmed tx gone from the history is looked up, and its block asked for.
            for txid in AddressReducer.confirmedCandidates(
                stored,
                history: history,
                tipHeight: memory.tip?.height,
                context: ctx
            ) {
                lookups[txid] = model.transaction(txid).map { _ in chainTx(txid) }
                if let tx = stored.txs[txid], let height = tx.blockHeight, let hash = tx.blockHash,
                    let block = model.block(height: height), block.hash != hash
                {
                    replacedBlocks.insert(hash)
                }
            }
        }
        let observation = AddressReducer.Observation(
            summary: summary,
            history: history,
            complete: complete,
            tipHeight: memory.tip?.height,
            lookups: lookups,
            replacedBlocks: replacedBlocks
        )
        let (next, emitted) = AddressReducer.observe(stored, observation, context: ctx)
        states[address] = next
        events += emitted
    }

    func addressTx(_ txid: String, _ address: String) -> AddressTx {
        let location = model.location(of: txid)
        let delta = model.transaction(txid)?.delta(for: [address]) ?? 0
        return AddressTx(
            txid: txid,
            blockHeight: location?.height,
            blockHash: location.flatMap { model.block(height: $0.height)?.hash },
            time: nil,
            deltaSat: delta
        )
    }

    func chainTx(_ txid: String) -> ChainTransaction {
        let location = model.location(of: txid)
        return ChainTransaction(
            txid: txid,
            blockHeight: location?.height,
            blockHash: location.flatMap { model.block(height: $0.height)?.hash },
            time: nil,
            feeSat: nil,
            inputs: [],
            outputs: []
        )
    }

    enum OracleError: Error { case noBlock(Int) }
}
