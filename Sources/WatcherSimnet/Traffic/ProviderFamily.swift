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
        if path == "/api" || path.hasPrefix("/api/") {
            self = .blockbook
        } else if path.hasPrefix("/rawaddr") || path.hasPrefix("/multiaddr") || path.hasPrefix("/latestblock") {
            self = .rawaddr
        } else if path.hasPrefix("/v1/bpi/") {
            self = .coindesk
        } else if path.hasPrefix("/v2/prices/") {
            self = .coinbase
        } else if path == "/" || path.hasPrefix("/rest/") {
            self = .bitcoind
        } else {
            return nil
        }
    }

    /// The statistics key of the endpoint serving `path`, e.g. `/api/v2/address` for
    /// `/api/v2/address/bc1q…`. Unmatched Blockbook paths count as `/api/` (the status handler).
    public static func endpoint(for path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        switch segments.first {
        case "api":
            let known = ["block-index", "block", "address", "xpub", "tx", "tickers"]
            if segments.count >= 3, segments[1] == "v2", known.contains(String(segments[2])) {
                return "/api/v2/\(segments[2])"
            }
            return "/api/"
        case "rawaddr": return "/rawaddr"
        case "multiaddr": return "/multiaddr"
        case "latestblock": return "/latestblock"
        case "v1": return "/v1/bpi/currentprice"
        case "v2": return "/v2/prices/spot"
        case "rest": return NodeREST.endpoint(path)
        default: return path
        }
    }
}
