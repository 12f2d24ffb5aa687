/// The Bitcoin Core release the node face answers as (`--core-version`): `getnetworkinfo` reports it, and the
/// calls whose answers changed between releases follow it (`getindexinfo` lists `txospenderindex` from 31.0).
public struct CoreVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major release (31 for 31.0).
    public let major: Int
    /// The minor release.
    public let minor: Int

    /// The newest release whose answers the face follows, and the default.
    public static let newest = CoreVersion(major: 31, minor: 0)
    /// The oldest release the face answers as (22.0: `getindexinfo`, the `desc` and `address` of today's txs).
    public static let oldest = CoreVersion(major: 22, minor: 0)
    /// The release that added the transaction-output spender index (`-txospenderindex`) that ElectrumX 2 requires.
    public static let txospenderIndex = CoreVersion(major: 31, minor: 0)

    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Parses `31`, `31.0` or `31.0.0` (a patch number is not modelled and must be 0), within
    /// ``oldest``...``newest``; `nil` for anything else.
    public init?(text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), let major = parts[0], parts.allSatisfy({ $0 != nil && $0! >= 0 }) else {
            return nil
        }
        if parts.count == 3, parts[2] != 0 { return nil }
        let version = CoreVersion(major: major, minor: parts.count > 1 ? parts[1] ?? 0 : 0)
        guard (Self.oldest...Self.newest).contains(version) else { return nil }
        self = version
    }

    /// `getnetworkinfo`'s `version`: major × 10,000 + minor × 100 (310000 for 31.0).
    public var number: Int { major * 10_000 + minor * 100 }

    /// `getnetworkinfo`'s `subversion`: `/Satoshi:31.0.0/`.
    public var subversion: String { "/Satoshi:\(major).\(minor).0/" }

    /// `31.0`.
    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: CoreVersion, rhs: CoreVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
