/// Each provider family's own error answers, as the real services send them (each face words its own).
enum FamilyErrors {
    /// Over the rate limit: 429 with the family's body (the caller adds `Retry-After`).
    static func rateLimited(_ family: ProviderFamily) -> SimReply { SimnetFaces.face(family).rateLimited }

    /// A server error with `status` (5xx).
    static func serverError(_ family: ProviderFamily, status: Int) -> SimReply {
        SimnetFaces.face(family).serverError(status: status)
    }

    /// Valid JSON of the wrong shape for the family: Blockbook's status JSON (what it serves for unmatched paths),
    /// blockchain.info's haskoin error object, CoinDesk's supported-currencies array, and a Coinbase body whose
    /// `data` is an array.
    static func wrongShape(_ family: ProviderFamily, world: SimnetWorld.State, now: Double) -> SimReply {
        SimnetFaces.face(family).wrongShape(world: world, now: now)
    }

    /// A body that is not JSON at all: an nginx-style HTML error page.
    static let malformedBody = Array(
        ("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
            + "<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n").utf8
    )
}
