import Foundation

/// A provider's estimate of the fee rate a transaction needs to confirm in the next block
/// (``ChainProvider/feeRate(blocks:)`` with 1 block): what `zeroConf.minFeeRate: "nextBlock"` holds an unconfirmed
/// payment to.
public struct FeeEstimate: Sendable, Hashable, Codable {
    /// The rate in sat/vB, exact.
    public var satPerVB: Decimal
    /// When it was read.
    public var time: Date
    /// The provider id it came from.
    public var provider: String

    /// Creates an estimate.
    public init(satPerVB: Decimal, time: Date, provider: String) {
        self.satPerVB = satPerVB
        self.time = time
        self.provider = provider
    }

    /// How old an estimate may be and still be held against a payment seen now: a few blocks' worth.
    public static let maxAgeSeconds = 1_800
}
