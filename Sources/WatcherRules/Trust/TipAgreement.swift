import WatcherCore

/// One agreed tip across providers, as pure rules (`agree` above 1 on some watch of the chain).
///
/// Confirmations are counted from the highest block that `agree` providers have on their chain: the shared height
/// is the highest one `agree` tips reach, and the block there is the hash most of them hold, if `agree` do. A
/// provider whose block at that height has another hash is on another chain; one more than `maxLag` blocks below it
/// is lagging (or on another chain, when its tip differs from the stored chain at its height). Either way it is set
/// aside: skipped for requests while the list has another, and left out of confirmations. A provider a little
/// behind (within `maxLag`) is not judged: its hash at the shared height is not known without another request.
public enum TipAgreement {
    /// Where a provider stands against the agreed tip.
    public enum Standing: Sendable, Hashable {
        /// On the agreed chain, or within `maxLag` below it.
        case agrees
        /// More than `maxLag` blocks below the agreed tip.
        case lagging(blocks: Int)
        /// Holds another block than the agreed chain at `height`.
        case otherChain(height: Int)

        /// Why it is set aside (`provider.degraded`'s `data.reason`), `nil` when it agrees.
        public var reason: String? {
            switch self {
            case .agrees: nil
            case .lagging(let blocks): "lagging \(blocks) block\(blocks == 1 ? "" : "s") behind"
            case .otherChain(let height): "on another chain at height \(height)"
            }
        }

        /// Whether two standings are the same kind (a lag that grows is not news).
        func sameKind(as other: Standing) -> Bool {
            switch (self, other) {
            case (.agrees, .agrees), (.lagging, .lagging), (.otherChain, .otherChain): true
            default: false
            }
        }
    }

    /// What one provider said this round.
    public struct Report: Sendable, Hashable {
        /// The provider id.
        public var provider: String
        /// Its tip.
        public var tip: BlockRef
        /// Its block hash at the shared height, when its tip is above it and it answered.
        public var hashAtShared: String?

        /// Creates a report.
        public init(_ provider: String, tip: BlockRef, hashAtShared: String? = nil) {
            self.provider = provider
            self.tip = tip
            self.hashAtShared = hashAtShared
        }
    }

    /// What the reports decide.
    public struct Verdict: Sendable, Hashable {
        /// The agreed tip, `nil` while fewer than `agree` providers hold one block at the shared height.
        public var tip: BlockRef?
        /// Each judged provider's standing (none while withheld: nobody can be told wrong).
        public var standings: [String: Standing]
    }

    /// The highest height that `agree` of `tips` reach, `nil` with fewer tips than that.
    public static func sharedHeight(_ tips: [BlockRef], agree: Int) -> Int? {
        let heights = tips.map(\.height).sorted(by: >)
        guard agree >= 1, heights.count >= agree else { return nil }
        return heights[agree - 1]
    }

    /// Decides on `reports` (in the providers' order, which breaks ties).
    /// - Parameter known: the stored chain's hash at a height, to tell a far-behind provider on a stale fork.
    public static func decide(
        _ reports: [Report],
        agree: Int,
        maxLag: Int,
        known: (Int) -> String? = { _ in nil }
    ) -> Verdict {
        guard let shared = sharedHeight(reports.map(\.tip), agree: agree) else { return Verdict(standings: [:]) }
        func hash(_ report: Report) -> String? {
            report.tip.height == shared ? report.tip.hash : report.hashAtShared
        }
        var best: (hash: String, count: Int)?
        for report in reports {
            guard let candidate = hash(report) else { continue }
            let count = reports.filter { hash($0) == candidate }.count
            if count > (best?.count ?? 0) { best = (candidate, count) }
        }
        guard let best, best.count >= agree else { return Verdict(standings: [:]) }
        var standings: [String: Standing] = [:]
        for report in reports {
            if report.tip.height >= shared {
                guard let theirs = hash(report) else { continue }
                standings[report.provider] = theirs == best.hash ? .agrees : .otherChain(height: shared)
            } else if shared - report.tip.height > maxLag {
                let height = report.tip.height
                let stale = known(height).map { $0 != report.tip.hash } ?? false
                standings[report.provider] = stale ? .otherChain(height: height) : .lagging(blocks: shared - height)
            } else {
                standings[report.provider] = .agrees
            }
        }
        return Verdict(tip: BlockRef(height: shared, hash: best.hash), standings: standings)
    }

    /// The standings that changed kind since `old` (a provider never judged counts as agreeing): what is reported
    /// as `provider.degraded` or `provider.recovered`, once each.
    public static func changes(from old: [String: Standing], to new: [String: Standing]) -> [String: Standing] {
        new.filter { provider, standing in !(old[provider] ?? .agrees).sameKind(as: standing) }
    }
}
