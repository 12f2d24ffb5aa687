import WatcherCore
import WatcherHTTP

/// The `blockbook` plugin: Trezor Blockbook REST v2, for chain data and, through `/api/v2/tickers`, prices.
public enum BlockbookPlugin: ProviderPlugin {
    /// Options of a `blockbook` provider.
    public struct Options: ProviderOptions {
        /// The instance's base URL, e.g. `https://btc1.trezor.io`.
        public var url: String
        /// Timeout, body cap, headers.
        public var http: HTTPOptions
        /// Currencies the tickers endpoint is asked for.
        public var currencies: [String]
        /// Whether to follow new blocks and mempool payments over `/websocket` (on by default; polling is the
        /// fallback while the socket is down or refused).
        public var websocket: Bool
        /// Websocket connections, each following up to 1,000 addresses (Blockbook's cap per connection).
        public var websocketConnections: Int

        public init(from reader: ObjectReader) {
            url = reader.url("url", required: true, doc: "Base URL of the Blockbook instance.") ?? ""
            http = HTTPOptions(from: reader)
            currencies = reader.strings(
                "currencies",
                default: ["USD", "GBP", "EUR"],
                doc: "Fiat currencies asked of /api/v2/tickers when used as a price provider."
            )
            websocket = reader.bool(
                "websocket",
                default: true,
                doc: "Follow /websocket: new blocks replace tip polling while connected, and mempool payments of up "
                    + "to 1000 followed addresses per connection arrive within seconds. Polling carries on while the "
                    + "socket is down or refused; false polls only."
            )
            websocketConnections =
                reader.int(
                    "websocketConnections",
                    default: 1,
                    range: 1...BlockbookPush.maxConnections,
                    doc: "Websocket connections when websocket is on, each following up to 1000 addresses (Blockbook's "
                        + "cap); the first also follows new blocks."
                )
            if reader.has("websocketConnections"), !websocket {
                reader.context.warning(
                    reader.path.key("websocketConnections"),
                    "has no effect with \"websocket\": false"
                )
            }
        }

        /// 1,000 addresses per connection when `websocket` is on.
        public var pushAddresses: Int? {
            websocket ? BlockbookPush.addressesPerConnection * websocketConnections : nil
        }

        /// Any: `/api/v2/tickers/` returns every rate the instance has, whatever `currencies` lists.
        public var priceCurrencies: [String]? { nil }
    }

    public static let descriptor = PluginDescriptor.provider(
        type: "blockbook",
        summary: "Trezor Blockbook REST v2: tip, blocks, addresses, wallets (xpub), transactions, and fiat tickers.",
        chain: [
            .status, .tip, .block, .blockTransactions, .address, .addressTransactions, .transaction, .walletSummary,
            .spenders, .feeEstimate,
        ],
        prices: true,
        defaultRateLimit: RateLimit(requests: 20, per: .seconds(60), burst: 20, concurrency: 4),
        requestsPerTip: 2
    )

    public static func makeChainProvider(id: String, options: Options, context: PluginContext) throws
        -> (any ChainProvider)?
    {
        make(id: id, options: options, context: context)
    }

    public static func makePriceProvider(id: String, options: Options, context: PluginContext) throws
        -> (any PriceProvider)?
    {
        make(id: id, options: options, context: context)
    }

    static func make(id: String, options: Options, context: PluginContext) -> BlockbookProvider {
        var provider = BlockbookProvider(
            id: id,
            baseURL: options.url,
            http: context.http,
            options: options.http,
            currencies: options.currencies
        )
        if options.websocket {
            provider.pushConnection = BlockbookPush(
                baseURL: options.url,
                connections: options.websocketConnections,
                logger: context.logger
            )
        }
        return provider
    }
}
