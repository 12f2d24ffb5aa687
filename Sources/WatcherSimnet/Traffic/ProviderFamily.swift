/// The provider APIs the simnet imitates. Rate limits, faults and statistics are kept per family.
public enum ProviderFamily: String, Sendable, Hashable, CaseIterable, Codable {
    /// Blockbook REST v2 under `/api/`.
    case blockbook
    /// blockchain.info-style `/rawaddr`, `/multiaddr`, `/latestblock`.
    case rawaddr
    /// CoinDesk BPI v1 under `/v1/bpi/`.
    case coindesk
    /// Coinbase spot prices under `/v2/prices/`.
    case coinbase
    /// Bitcoin Core: JSON-RPC at `POST /` and REST under `/rest/`.
    case bitcoind
    /// The Electrum protocol over TCP (``SimnetConfiguration/electrumPort``); endpoints are method names.
    case electrum

    /// The family serving `path`, `nil` for paths outside every family.
    public init?(path: String) {
        guard let face = SimnetFaces.all.first(where: { $0.owns(path) }) else { return nil }
        self = face.family
    }

    /// The statistics key of the endpoint serving `path`, e.g. `/api/v2/address` for
    /// `/api/v2/address/bc1q…` (each face says for its own paths); any other path counts as itself.
    public static func endpoint(for path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return SimnetFaces.all.lazy.compactMap { $0.endpoint(of: path, segments: segments) }.first ?? path
    }
}
