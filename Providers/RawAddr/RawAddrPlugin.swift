import WatcherCore
import WatcherHTTP

/// The `rawaddr` plugin: a blockchain.info-style Data API (`/rawaddr`, `/multiaddr`, `/latestblock`).
public enum RawAddrPlugin: ProviderPlugin {
    /// Options of a `rawaddr` provider.
    public struct Options: ProviderOptions {
        /// The API's base URL.
        public var url: String
        /// Addresses per `/multiaddr` request.
        public var batchSize: Int?
        /// Timeout, body cap, headers.
        public var http: HTTPOptions

        public init(from reader: ObjectReader) {
            url = reader.url("url", default: "https://blockchain.info", doc: "Base URL of the API.")
            batchSize =
                reader.int("batchSize", default: 80, range: 1...100, doc: "Addresses per /multiaddr request.")
            http = HTTPOptions(from: reader)
        }
    }

    public static let descriptor = PluginDescriptor.provider(
        type: "rawaddr",
        summary: "blockchain.info-style Data API: /latestblock, /rawaddr paging and /multiaddr batches.",
        chain: [.tip, .address, .addressBatch, .addressTransactions],
        defaultRateLimit: RateLimit(requests: 6, per: .seconds(60), burst: 1, concurrency: 1)
    )

    public static func makeChainProvider(id: String, options: Options, context: PluginContext) throws
        -> (any ChainProvider)?
    {
        RawAddrProvider(
            id: id,
            baseURL: options.url,
            http: context.http,
            options: options.http,
            batchSize: options.batchSize ?? 80
        )
    }
}
