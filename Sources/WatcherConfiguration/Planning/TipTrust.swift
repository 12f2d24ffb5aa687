/// What a chain's agreed tip asks (`docs/configuration.md#trust-across-providers`): the smallest `agree` above 1
/// among the chain's `address`, `wallet` and `tx` watches, the smallest `maxLag`, and every provider of those watches
/// that serves the chain, in the watches' order. One agreed tip per chain, since the stored tip counts every watch's
/// confirmations; the smallest `agree`, so a watch asking more of its transactions' blocks (a `tx` watch with
/// `agree: 3`) does not stop the chain of the others when one provider goes its own way.
public struct TipTrust: Sendable, Equatable {
    /// Providers that must hold the tip's block.
    public var agree: Int
    /// Blocks a provider may be behind before it is set aside.
    public var maxLag: Int
    /// Every provider asked for its tip each round.
    public var providers: [String]

    /// The trust of `chain` under `watches`, `nil` when no watch asks for more than one provider's word.
    /// - Parameter servesChain: whether a provider id is a chain provider with a tip.
    public init?(chain: String, watches: [WatchConfig], servesChain: (String) -> Bool) {
        let demanding = watches.filter {
            $0.chain == chain && $0.agree > 1 && [.address, .wallet, .tx].contains($0.kind)
        }
        guard let agree = demanding.map(\.agree).min(), let maxLag = demanding.map(\.maxLag).min() else {
            return nil
        }
        var seen: Set<String> = []
        self.agree = agree
        self.maxLag = maxLag
        self.providers = demanding.flatMap(\.providers).filter { servesChain($0) && seen.insert($0).inserted }
    }
}
