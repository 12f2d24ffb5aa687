extension FixedWidthInteger {
    /// The integer as fixed-width big-endian bytes, so that byte order in LMDB keys matches numeric order.
    public var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: self.bigEndian) { Array($0) }
    }

    /// Reads a fixed-width big-endian integer; `nil` when `bytes` has the wrong length.
    public init?<Bytes: Collection<UInt8>>(bigEndianBytes bytes: Bytes) {
        guard bytes.count == MemoryLayout<Self>.size else { return nil }
        var value: Self = 0
        for byte in bytes { value = value << 8 | Self(byte) }
        self = value
    }
}
