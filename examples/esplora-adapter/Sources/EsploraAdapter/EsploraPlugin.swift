import WatcherCore
import WatcherHTTP

/// The `esplora` plugin: Blockstream's esplora/electrs REST API (`blockstream.info/api`, `mempool.space/api`, or
/// your own electrs).
public enum EsploraPlugin: ProviderPlugin {
    /// Options of an `esplora` provider.
    public struct Options: ProviderOptions {
        /// The API's base URL, up to and including `/api` where the server has it.
        public var url: String
        /// Timeout, body cap, headers.
        public var http: HTTPOptions

        public init(from reader: ObjectReader) {
            url =
                reader.url(
                    "url",
                    default: "https://blockstream.info/api",
                    doc: "Base URL of the API, e.g. https://mempool.space/api or http://127.0.0.1:3002 for electrs."
                ) ?? ""
            http = HTTPOptions(from: reader)
        }
    }

    public static let descriptor = PluginDescriptor.provider(
        type: "esplora",
        summary: "Esplora/electrs REST API (blockstream.info, mempool.space, self-hosted electrs).",
        chain: [.tip, .block, .address, .addressTransactions, .transaction],
        // Blockstream caps unauthenticated use at 700 requests/hour per IP: 11 a minute stays under it.
        defaultRateLimit: RateLimit(requests: 11, per: .seconds(60), burst: 2, concurrency: 1),
        // Two requests: GET /blocks/tip/height, then GET /block-height/:h. EsploraProvider reads it from here.
        requestsPerTip: 2
    )

    public static func makeChainProvider(id: String, options: Options, context: PluginContext) throws
        -> (any ChainProvider)?
    {
        EsploraProvider(id: id, baseURL: options.url, http: context.http, options: options.http)
    }
}
