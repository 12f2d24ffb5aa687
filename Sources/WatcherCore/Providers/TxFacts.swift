import Foundation

/// The facts of one transaction a policy on unconfirmed payments reads: its fee and virtual size, whether it
/// signals replace-by-fee (BIP125), and how many of its inputs spend outputs of unconfirmed transactions.
///
/// Each field is `nil` where the provider cannot tell. With full-RBF (Bitcoin Core 28+ by default) any
/// unconfirmed transaction can be replaced whatever it signals: these are facts, not a promise.
public struct TxFacts: Sendable, Hashable, Codable {
    /// The fee in satoshi.
    public var feeSat: Int64?
    /// The virtual size in vbytes (weight / 4, rounded up).
    public var vsize: Int?
    /// The inputs' nSequence values, in input order; `nil` when the provider does not give them.
    public var sequences: [UInt32]?
    /// The txid each input spends from, in input order; `nil` when the provider does not give them.
    public var parents: [String]?
    /// The output each input spends, in input order; `nil` when the provider does not give them. The engine keeps
    /// them while the transaction is followed, to find what replaced it if it vanishes.
    public var outpoints: [TxOutpoint]?
    /// How many inputs spend outputs of unconfirmed transactions, once known.
    public var unconfirmedInputs: Int?

    /// Creates facts.
    public init(
        feeSat: Int64? = nil,
        vsize: Int? = nil,
        sequences: [UInt32]? = nil,
        parents: [String]? = nil,
        outpoints: [TxOutpoint]? = nil,
        unconfirmedInputs: Int? = nil
    ) {
        self.feeSat = feeSat
        self.vsize = vsize
        self.sequences = sequences
        self.parents = parents
        self.outpoints = outpoints
        self.unconfirmedInputs = unconfirmedInputs
    }

    /// These facts without the inputs' outpoints and parents: what is kept with a followed transaction.
    public var kept: TxFacts {
        var facts = self
        facts.outpoints = nil
        facts.parents = nil
        return facts
    }

    /// These facts with what they lack taken from `other` (a later read of the same transaction): a fact once known
    /// is kept, an unknown one is learnt.
    public func filling(from other: TxFacts?) -> TxFacts {
        guard let other else { return self }
        var facts = self
        facts.feeSat = feeSat ?? other.feeSat
        facts.vsize = vsize ?? other.vsize
        facts.sequences = sequences ?? other.sequences
        facts.parents = parents ?? other.parents
        facts.outpoints = outpoints ?? other.outpoints
        facts.unconfirmedInputs = unconfirmedInputs ?? other.unconfirmedInputs
        return facts
    }

    /// BIP125 signalling: any input with nSequence below `0xfffffffe`. `nil` without the sequences.
    public var signalsRBF: Bool? {
        sequences.map { $0.contains { $0 < 0xffff_fffe } }
    }

    /// The fee rate in sat/vB as a decimal string with two decimals, rounded half to even from the exact
    /// quotient in integer arithmetic (`"12.35"`); `nil` without the fee or the size.
    public var feeRate: String? {
        guard let feeSat, feeSat >= 0, feeSat <= 2_100_000_000_000_000, let vsize, vsize > 0 else { return nil }
        let scaled = feeSat * 100
        let size = Int64(vsize)
        var hundredths = scaled / size
        let remainder = scaled % size
        if remainder * 2 > size || (remainder * 2 == size && hundredths % 2 == 1) { hundredths += 1 }
        let cents = hundredths % 100
        return "\(hundredths / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}
