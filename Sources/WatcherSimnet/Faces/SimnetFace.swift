/// One provider API the simnet imitates: the paths it owns, the statistics key of each, the answers to its data
/// requests, and its own words for errors. A face is a folder under `Faces/` with one type conforming to this, listed
/// in ``SimnetFaces/all``; nothing outside its folder switches over its ``ProviderFamily``.
protocol SimnetFace: Sendable {
    /// The family its rate limit, faults and statistics are kept under.
    static var family: ProviderFamily { get }
    /// Whether `path` is in its URL space.
    static func owns(_ path: String) -> Bool
    /// The statistics key of the endpoint serving `path` (split into `segments`), `nil` when the first segment is
    /// not its.
    static func endpoint(of path: String, segments: [Substring]) -> String?
    /// The answer to a data request, from a snapshot of the world.
    static func reply(path: String, query: [String: Substring], world: SimnetWorld.State, now: Double) -> SimReply
    /// Over the rate limit: 429 with its body (the caller adds `Retry-After`).
    static var rateLimited: SimReply { get }
    /// A server error with `status` (5xx).
    static func serverError(status: Int) -> SimReply
    /// An unknown path inside its URL space.
    static var notFound: SimReply { get }
    /// Valid JSON of the wrong shape for it.
    static func wrongShape(world: SimnetWorld.State, now: Double) -> SimReply
}

/// The faces, in the order paths are matched.
enum SimnetFaces {
    static let all: [any SimnetFace.Type] = [
        BlockbookFace.self, RawAddrFace.self, CoinDeskFace.self, CoinbaseFace.self, NodeFace.self, ElectrumFace.self,
    ]

    /// The face of `family`.
    static func face(_ family: ProviderFamily) -> any SimnetFace.Type {
        guard let face = all.first(where: { $0.family == family }) else {
            preconditionFailure("no simnet face for \(family)")
        }
        return face
    }
}
