/// The Electrum protocol over TCP (``SimnetConfiguration/electrumPort``, ``SimnetElectrum``): no HTTP path is its,
/// and its endpoints are method names. Its errors over HTTP read as the node's.
enum ElectrumFace: SimnetFace {
    static let family = ProviderFamily.electrum

    static func owns(_ path: String) -> Bool { false }

    static func endpoint(of path: String, segments: [Substring]) -> String? { nil }

    static func reply(path: String, query: [String: Substring], world: SimnetWorld.State, now: Double) -> SimReply {
        notFound
    }

    static var rateLimited: SimReply { .text("Too Many Requests", status: 429) }

    static func serverError(status: Int) -> SimReply { NodeFace.jsonRPCInternalError(status: status) }

    static var notFound: SimReply { NodeFace.notFound }

    static func wrongShape(world: SimnetWorld.State, now: Double) -> SimReply { NodeFace.jsonRPCWrongShape }
}
