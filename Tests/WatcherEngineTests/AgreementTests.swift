import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherEngine
@testable import WatcherRules
@testable import WatcherSimnet

/// ``Agreement``: examples, then a property test with the simnet's ``ChainModel`` as the oracle: two honest
/// providers answer from one chain, a third answers from a copy that received calls of its own (payments mined
/// into blocks only it has, reorgs) and, at random, lies outright (another block, another amount, "not found").
/// No confirmation is ever agreed that the honest chain does not hold, and an honest claim the other honest
/// provider holds is always agreed.
struct AgreementTests {
    typealias Said = Agreement.Said

    static let block = Agreement.Answer.block(height: 800_001, hash: "aa", deltaSat: 5_000)

    @Test func theClaimantAndOneOtherAgree() {
        let verdict = Agreement.decide([Said("a", Self.block), Said("b", Self.block)], agree: 2)
        #expect(verdict.agreed == Self.block)
        #expect(verdict.verifiedBy == ["a", "b"])
        #expect(!verdict.disagreement)
    }

    @Test func aLoneClaimIsWithheldAndNotFoundIsADisagreement() {
        let said = [Said("liar", Self.block), Said("a", .notFound), Said("b", .notFound)]
        let verdict = Agreement.decide(said, agree: 2)
        #expect(verdict.agreed == nil)
        #expect(verdict.disagreement)
        let scene = Agreement.Scene(
            chain: "btc",
            watch: "w",
            address: "addr",
            txid: "t1",
            now: Date(timeIntervalSince1970: 0)
        )
        let event = Agreement.disagreed(said, verdict: verdict, agree: 2, scene: scene)
        let data = event.flatMap { try? JSONValue.parse($0.body) }?["data"]
        #expect(data?["claimedBy"] == .string("liar"))
        #expect(data?["outcome"] == .string("withheld: fewer than 2 providers hold the transaction in one block"))
        // The same fact asked again has the same id: the log keeps it once.
        let again = Agreement.disagreed(said.reversed().reversed(), verdict: verdict, agree: 2, scene: scene)
        #expect(event?.id == again?.id)
    }

    @Test func aProviderStillWaitingIsNoDisagreement() {
        let verdict = Agreement.decide([Said("a", Self.block), Said("b", .mempool)], agree: 2)
        #expect(verdict.agreed == nil)
        #expect(!verdict.disagreement)
    }

    @Test func theOthersOutvoteTheClaimant() {
        let other = Agreement.Answer.block(height: 800_001, hash: "bb", deltaSat: 5_000)
        let verdict = Agreement.decide([Said("liar", Self.block), Said("a", other), Said("b", other)], agree: 2)
        #expect(verdict.agreed == other)
        #expect(verdict.verifiedBy == ["a", "b"])
        #expect(verdict.disagreement)
    }

    @Test func anotherAmountInTheSameBlockIsAnotherStory() {
        let less = Agreement.Answer.block(height: 800_001, hash: "aa", deltaSat: 1)
        let verdict = Agreement.decide([Said("liar", less), Said("a", Self.block)], agree: 2)
        #expect(verdict.agreed == nil)
        #expect(verdict.disagreement)
    }

    @Test func agreeOneIsTheClaimAlone() {
        #expect(Agreement.decide([Said("a", Self.block)], agree: 1).agreed == Self.block)
    }

    // MARK: - The property

    /// 40 seeds in `make test`; `AGREE_SEEDS=2000` for a long hunt.
    static let seeds: [UInt64] = Array(
        1...(ProcessInfo.processInfo.environment["AGREE_SEEDS"].flatMap(UInt64.init) ?? 40)
    )

    /// What a provider on `model` says about `txid`, with its effect on `address`.
    static func answer(_ model: ChainModel, _ txid: String, address: String) -> Agreement.Answer {
        guard let tx = model.transaction(txid) else { return .notFound }
        guard let location = model.location(of: txid), let block = model.block(height: location.height) else {
            return .mempool
        }
        let received = tx.outputs.filter { $0.address == address }.reduce(Int64(0)) { $0 + $1.value }
        let spent = tx.inputs.filter { $0.address == address }.reduce(Int64(0)) { $0 + $1.value }
        return .block(height: location.height, hash: block.hash, deltaSat: received - spent)
    }

    /// A lie about `truth`: another block, another amount, or "not found".
    static func lie(_ truth: Agreement.Answer, rng: inout SeededGenerator) -> Agreement.Answer {
        let height = 800_000 + rng.next(below: 50)
        switch rng.next(below: 4) {
        case 0: return .notFound
        case 1: return .block(height: height, hash: String(format: "%064x", rng.next()), deltaSat: 5_000)
        case 2:
            if case .block(let h, let hash, let delta) = truth {
                return .block(height: h, hash: hash, deltaSat: (delta ?? 0) + 1)
            }
            return .block(height: height, hash: String(format: "%064x", rng.next()), deltaSat: 1)
        default: return truth
        }
    }

    @Test(arguments: seeds)
    func noConfirmationTheHonestDoNotBothHold(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var honest = ChainModel(
            parameters: ChainParameters(seed: seed, txsPerBlock: 4, mempoolTxsPerBlock: 1, fundedAddressCount: 6)
        )
        let followed = (0..<3).map { _ in SimAddress.random(rng.element(of: [.p2wpkh, .p2tr, .p2pkh]), using: &rng) }
        // Same seed, same calls: identical until the liar gets calls of its own.
        var liar = honest
        var txids: [(String, String)] = []
        var agreedCount = 0
        for _ in 0..<30 {
            let to = rng.element(of: followed)
            let amount = rng.next(in: Int64(1_000)...500_000)
            switch rng.next(below: 10) {
            case 0...3:
                if let tx = try? honest.pay(to: to, amountSat: amount) { txids.append((tx.txid, to.string)) }
                if let tx = try? liar.pay(to: to, amountSat: amount) { txids.append((tx.txid, to.string)) }
            case 4...6:
                _ = try honest.mine(count: 1)
                _ = try liar.mine(count: 1)
            case 7:
                // The liar's own call: a payment mined into a block only it has.
                if let tx = try? liar.pay(to: to, amountSat: amount) { txids.append((tx.txid, to.string)) }
                _ = try liar.mine(count: 1)
            case 8:
                _ = try? liar.reorg(depth: rng.next(in: 1...min(3, liar.blocks.count - 2)))
            default:
                _ = try? honest.reorg(depth: 1)
                _ = try? liar.reorg(depth: 1)
            }
            for (txid, address) in txids {
                let truth = Self.answer(honest, txid, address: address)
                let liarSays = rng.chance(0.5) ? Self.lie(truth, rng: &rng) : Self.answer(liar, txid, address: address)
                let words = ["h1": truth, "h2": truth, "liar": liarSays]
                let order = ["h1", "liar", "h2"].shuffled(using: &rng)
                guard case .block = words[order[0]]! else { continue }
                for agree in 2...3 {
                    // As the verifier asks: the claimant, then the others in order until `agree` hold one block.
                    var said = [Said(order[0], words[order[0]]!)]
                    for id in order.dropFirst() where Agreement.needed(said, agree: agree) {
                        said.append(Said(id, words[id]!))
                    }
                    let verdict = Agreement.decide(said, agree: agree)
                    if let agreed = verdict.agreed {
                        agreedCount += 1
                        #expect(agreed == truth, "seed \(seed): agreed \(agreed) but the honest chain holds \(truth)")
                        #expect(verdict.verifiedBy.filter { $0 != "liar" }.count >= agree - 1)
                    }
                    if order[0] != "liar", case .block = truth, agree == 2 {
                        #expect(verdict.agreed == truth, "seed \(seed): an honest confirmation was withheld")
                    }
                }
            }
        }
        #expect(agreedCount > 0, "seed \(seed): nothing was ever confirmed")
    }
}
