import Foundation
import Testing
import WatcherCore

@testable import WatcherEngine
@testable import WatcherRules
@testable import WatcherSimnet

/// ``TipAgreement``: examples, then a property test with the simnet's ``ChainModel`` as the oracle: two honest
/// providers read one chain (each a few blocks behind at random), a third reads a copy that received calls of its
/// own (blocks only it has, reorgs) and, at random, reports a tip of any height. The agreed tip is always a block
/// of the honest chain, an honest provider is never said to be on another chain, and one within `maxLag` is never
/// set aside.
struct TipAgreementTests {
    typealias Report = TipAgreement.Report

    static func ref(_ height: Int, _ hash: String) -> BlockRef { BlockRef(height: height, hash: hash) }

    @Test func theHighestBlockTwoShareIsTheTipAndALiarAheadOnAnotherChainIsSetAside() {
        let reports = [
            Report("h1", tip: Self.ref(100, "a100")),
            Report("liar", tip: Self.ref(105, "x105"), hashAtShared: "x100"),
            Report("h2", tip: Self.ref(100, "a100")),
        ]
        let verdict = TipAgreement.decide(reports, agree: 2, maxLag: 2)
        #expect(verdict.tip == Self.ref(100, "a100"))
        #expect(verdict.standings == ["h1": .agrees, "h2": .agrees, "liar": .otherChain(height: 100)])
        #expect(verdict.standings["liar"]?.reason == "on another chain at height 100")
    }

    @Test func aProviderAheadOnTheSameChainAgreesAndTheTipIsTheSecondHighest() {
        let reports = [
            Report("a", tip: Self.ref(101, "a101"), hashAtShared: "a100"),
            Report("b", tip: Self.ref(100, "a100")),
            Report("c", tip: Self.ref(99, "a99")),
        ]
        let verdict = TipAgreement.decide(reports, agree: 2, maxLag: 2)
        #expect(verdict.tip == Self.ref(100, "a100"))
        #expect(verdict.standings == ["a": .agrees, "b": .agrees, "c": .agrees])
        // With agree 3, the third's tip is the shared height: a and b give their hash there.
        let three = TipAgreement.decide(
            reports.map {
                var r = $0; r.hashAtShared = "a99"; return r
            },
            agree: 3,
            maxLag: 2
        )
        #expect(three.tip == Self.ref(99, "a99"))
    }

    @Test func moreThanMaxLagBehindIsLaggingOrAStaleForkWhereTheStoredChainTells() {
        let reports = [
            Report("h1", tip: Self.ref(100, "a100")),
            Report("h2", tip: Self.ref(100, "a100")),
            Report("slow", tip: Self.ref(97, "a97")),
            Report("stale", tip: Self.ref(96, "s96")),
        ]
        let verdict = TipAgreement.decide(reports, agree: 2, maxLag: 2) { $0 == 96 ? "a96" : nil }
        #expect(verdict.standings["slow"] == .lagging(blocks: 3))
        #expect(verdict.standings["slow"]?.reason == "lagging 3 blocks behind")
        #expect(verdict.standings["stale"] == .otherChain(height: 96))
        // Two behind, within maxLag: not judged, not set aside.
        let near = TipAgreement.decide(
            [reports[0], reports[1], Report("near", tip: Self.ref(98, "zz"))],
            agree: 2,
            maxLag: 2
        )
        #expect(near.standings["near"] == .agrees)
        #expect(TipAgreement.Standing.lagging(blocks: 1).reason == "lagging 1 block behind")
    }

    @Test func fewerThanAgreeOnOneBlockWithholdsTheTipAndBlamesNobody() {
        let split = [Report("a", tip: Self.ref(100, "a100")), Report("b", tip: Self.ref(100, "b100"))]
        #expect(TipAgreement.decide(split, agree: 2, maxLag: 2) == .init(tip: nil, standings: [:]))
        let alone = [Report("a", tip: Self.ref(100, "a100"))]
        #expect(TipAgreement.decide(alone, agree: 2, maxLag: 2) == .init(tip: nil, standings: [:]))
        // A provider above the shared height that gave no hash there is not judged.
        let unanswered = [
            Report("a", tip: Self.ref(100, "a100")), Report("b", tip: Self.ref(100, "a100")),
            Report("c", tip: Self.ref(101, "a101")),
        ]
        let verdict = TipAgreement.decide(unanswered, agree: 2, maxLag: 2)
        #expect(verdict.tip == Self.ref(100, "a100"))
        #expect(verdict.standings["c"] == nil)
    }

    @Test func changesAreReportedOncePerKind() {
        var standings: [String: TipAgreement.Standing] = [:]
        func step(_ new: [String: TipAgreement.Standing]) -> [String: TipAgreement.Standing] {
            let changed = TipAgreement.changes(from: standings, to: new)
            standings.merge(new) { _, new in new }
            return changed
        }
        #expect(step(["a": .agrees]) == [:])
        #expect(step(["a": .lagging(blocks: 3)]) == ["a": .lagging(blocks: 3)])
        #expect(step(["a": .lagging(blocks: 4)]) == [:])
        #expect(step(["a": .otherChain(height: 9)]) == ["a": .otherChain(height: 9)])
        #expect(step([:]) == [:])
        #expect(step(["a": .agrees]) == ["a": .agrees])
        #expect(step(["a": .agrees]) == [:])
    }

    // MARK: - The property

    /// 40 seeds in `make test`; `TIP_SEEDS=2000` for a long hunt.
    static let seeds: [UInt64] = Array(
        1...(ProcessInfo.processInfo.environment["TIP_SEEDS"].flatMap(UInt64.init) ?? 40)
    )

    /// A provider on `model` whose tip is `behind` blocks below the model's, reporting its hash at `shared`.
    static func report(_ id: String, _ model: ChainModel, behind: Int, shared: Int?) -> Report? {
        guard let tip = model.block(height: model.tip.height - behind) else { return nil }
        var report = Report(id, tip: ref(tip.height, tip.hash))
        if let shared, shared < tip.height { report.hashAtShared = model.block(height: shared)?.hash }
        return report
    }

    @Test(arguments: seeds)
    func theAgreedTipIsAlwaysOnTheHonestChain(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var honest = ChainModel(parameters: ChainParameters(seed: seed, txsPerBlock: 1, mempoolTxsPerBlock: 0))
        var liar = honest
        var agreedRounds = 0
        for _ in 0..<40 {
            switch rng.next(below: 6) {
            case 0...2:
                _ = try honest.mine(count: 1)
                _ = try liar.mine(count: 1)
            case 3: _ = try liar.mine(count: rng.next(in: 1...3))
            case 4: _ = try? liar.reorg(depth: rng.next(in: 1...min(3, liar.blocks.count - 2)))
            default:
                _ = try? honest.reorg(depth: 1)
                _ = try? liar.reorg(depth: 1)
            }
            let lags = (rng.next(in: 0...4), rng.next(in: 0...4), rng.next(in: 0...3))
            let maxLag = rng.next(in: 0...3)
            for agree in 2...3 {
                // Two passes, as the driver: the tips, then the hashes at the shared height.
                let first = [
                    Self.report("h1", honest, behind: lags.0, shared: nil),
                    Self.report("liar", liar, behind: lags.2, shared: nil),
                    Self.report("h2", honest, behind: lags.1, shared: nil),
                ].compactMap { $0 }
                let shared = TipAgreement.sharedHeight(first.map(\.tip), agree: agree)
                let reports = [
                    Self.report("h1", honest, behind: lags.0, shared: shared),
                    Self.report("liar", liar, behind: lags.2, shared: shared),
                    Self.report("h2", honest, behind: lags.1, shared: shared),
                ].compactMap { $0 }
                let verdict = TipAgreement.decide(reports, agree: agree, maxLag: maxLag) {
                    honest.block(height: $0)?.hash
                }
                if let tip = verdict.tip {
                    agreedRounds += 1
                    #expect(honest.block(height: tip.height)?.hash == tip.hash, "seed \(seed): off the honest chain")
                    for report in reports where report.provider != "liar" {
                        let standing = verdict.standings[report.provider]
                        if case .otherChain = standing { Issue.record("seed \(seed): honest \(report) on a fork") }
                        if tip.height - report.tip.height <= maxLag {
                            #expect(standing == .agrees, "seed \(seed): \(report) within maxLag \(maxLag)")
                        }
                    }
                }
                // Both honest providers at the honest tip: agreed there, whatever the liar says.
                if agree == 2, lags.0 == 0, lags.1 == 0 {
                    #expect(verdict.tip == Self.ref(honest.tip.height, honest.tip.hash), "seed \(seed)")
                }
            }
        }
        #expect(agreedRounds > 0)
    }
}
