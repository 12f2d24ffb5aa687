/// SplitMix64: a tiny seedable generator for jitter and simulations (the system generator cannot be seeded).
///
/// The simnet derives everything random from one of these, so that the same seed always yields the same chain.
/// The helpers below do their own range reduction instead of relying on the standard library's
/// `random(in:using:)`, whose algorithm is an implementation detail and could change between toolchains.
public struct SplitMixRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed gives the same sequence.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound`; `bound` must be positive.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let limit = UInt64(bound)
        // Rejection sampling removes the modulo bias.
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold { return Int(value % limit) }
        }
    }

    /// A uniform integer in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.upperBound - range.lowerBound + 1)
    }

    /// A uniform 64-bit integer in `range`.
    public mutating func next(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if width == 0 { return Int64(bitPattern: next()) }
        let threshold = (0 &- width) % width
        while true {
            let value = next()
            if value >= threshold { return range.lowerBound &+ Int64(bitPattern: value % width) }
        }
    }

    /// A uniform value in `[0, 1)` with 53 bits of precision.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// `true` with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        nextUnit() < probability
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count + 8)
        while result.count < count {
            var word = next()
            for _ in 0..<8 {
                result.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return Array(result.prefix(count))
    }

    /// A random element of a non-empty array.
    public mutating func element<T>(of array: [T]) -> T {
        array[next(below: array.count)]
    }
}
