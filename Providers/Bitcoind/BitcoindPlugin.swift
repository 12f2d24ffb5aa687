import Foundation
import WatcherCore
import WatcherHTTP
import WatcherZMQ

/// The `bitcoind` plugin: your own Bitcoin Core node over JSON-RPC, and REST when enabled.
public enum BitcoindPlugin: ProviderPlugin {
    /// Options of a `bitcoind` provider.
    public struct Options: ProviderOptions, SecretBearing {
        /// The RPC URL, e.g. `http://127.0.0.1:8332`.
        public var url: String
        /// Core's cookie file, when authenticating by cookie.
        public var cookieFile: String?
        /// An `rpcuser`/`rpcauth` user, with ``password``.
        public var user: String?
        /// Its password (a `${ENV}` secret).
        public var password: String?
        /// Whether headers, block hashes and blocks come from `/rest/`.
        public var rest: Bool
        /// Whether scanned blocks carry their inputs' prevouts (`getblock <hash> 3`).
        public var prevouts: Bool
        /// Timeout, body cap, headers.
        public var http: HTTPOptions
        /// Where the node publishes ZMQ `hashblock`/`sequence` (`tcp://host:port`), `auto` to ask the node
        /// (`getzmqnotifications`), `nil` for no ZMQ.
        public var zmq: String?
        /// The budget of one `scantxoutset` (starting balances).
        public var scanTimeout: Duration

        /// The ZMQ hint runs as the chain's push job but follows no addresses.
        public var pushAddresses: Int? { zmq == nil ? nil : 0 }

        public init(from reader: ObjectReader) {
            url = reader.url(
                "url",
                default: "http://127.0.0.1:8332",
                doc: "The node's RPC URL (mainnet 8332, testnet3 18332, testnet4 48332, signet 38332, regtest 18443)."
            )
            cookieFile = reader.string(
                "cookieFile",
                doc: "Core's cookie file (<datadir>/.cookie, or <datadir>/<network>/.cookie), read again after a 401."
            )
            user = reader.string("user", doc: "An rpcuser or rpcauth user, with password, instead of cookieFile.")
            password = reader.secret("password", doc: "The user's password, as ${ENV}.")
            rest = reader.bool(
                "rest",
                default: false,
                doc: "Read headers, block hashes and blocks from /rest/ (the node runs with rest=1)."
            )
            prevouts = reader.bool(
                "prevouts",
                default: true,
                doc: "Scan blocks with getblock verbosity 3, whose inputs carry the outputs they spend (Core 23+, "
                    + "unpruned blocks): spends from followed addresses are seen. false reads raw blocks (a third "
                    + "of the bytes), which show payments only."
            )
            http = HTTPOptions(from: reader, timeout: .seconds(30), maxBodyBytes: 64 << 20)
            scanTimeout = reader.duration(
                "scanTimeout",
                default: .seconds(1200),
                doc: "The budget of the one scantxoutset that reads the starting balances of a watch's addresses "
                    + "(minutes on mainnet: Core reads its whole UTXO set); it runs apart from the 4 requests in "
                    + "flight, one scan at a time."
            )
            zmq = reader.string(
                "zmq",
                doc: "A hint for new blocks: the node's ZMQ endpoint (zmqpubhashblock/zmqpubsequence), e.g. "
                    + "tcp://127.0.0.1:28332, or auto to ask the node (getzmqnotifications). A block message starts "
                    + "the tip poll at once; polling at the watch's interval stays the truth. Off by default."
            )
            let path = reader.path
            if let zmq, let problem = Self.zmqProblem(zmq) { reader.context.error(path.key("zmq"), problem) }
            if cookieFile != nil, user != nil || password != nil {
                reader.context.error(path.key("user"), "give cookieFile, or user and password, not both")
            } else if cookieFile == nil, user == nil, password == nil, !reader.context.hasErrors(under: path) {
                reader.context.error(
                    path.key("cookieFile"),
                    "the node needs credentials: cookieFile (e.g. ~/.bitcoin/.cookie), or user and password"
                )
            } else if (user == nil) != (password == nil), cookieFile == nil {
                reader.context.error(path.key(user == nil ? "user" : "password"), "user and password go together")
            }
            if let written = reader.written("password"), !written.contains("${") {
                reader.context.warning(path.key("password"), "write the password as ${ENV}, not in the file")
            }
        }

        /// Why `text` is not a usable `zmq` value (`nil`: it is), libzmq's availability included.
        static func zmqProblem(_ text: String) -> String? {
            if text != "auto" {
                let parts = text.split(separator: ":")
                guard text.hasPrefix("tcp://") || text.hasPrefix("ipc://"),
                    text.hasPrefix("ipc://") || (parts.count == 3 && UInt16(parts[2]) != nil && parts[2] != "0")
                else { return "'\(text)' must be auto, tcp://host:port (e.g. tcp://127.0.0.1:28332) or ipc://path" }
            }
            if let failure = ZMQSubscriber.unavailableReason {
                return "ZMQ cannot be used here (\(failure)); remove zmq to rely on polling"
            }
            return nil
        }

        /// The credentials the options give.
        public var auth: BitcoindAuth {
            if let cookieFile { return .cookieFile(cookieFile) }
            return .password(user: user ?? "", password: password ?? "")
        }
    }

    public static let descriptor = PluginDescriptor.provider(
        type: "bitcoind",
        summary: "Your own Bitcoin Core node over JSON-RPC (and REST): tip, blocks, block scans, transactions; "
            + "no address index, so address and wallet watches scan its blocks.",
        chain: [
            .status, .tip, .block, .headerBatch, .blockTransactions, .transaction, .mempool, .spenders, .utxoScan,
            .feeEstimate,
        ],
        // A local node has no request budget; a concurrency cap keeps well under its RPC threads and work queue.
        defaultRateLimit: RateLimit(requests: 0, per: .seconds(1), concurrency: 4)
    )

    public static func makeChainProvider(id: String, options: Options, context: PluginContext) throws
        -> (any ChainProvider)?
    {
        var provider = BitcoindProvider(
            id: id,
            baseURL: options.url,
            http: context.http,
            options: options.http,
            auth: options.auth,
            chain: context.chain,
            rest: options.rest,
            prevouts: options.prevouts
        )
        provider.scanTimeout = options.scanTimeout
        if let zmq = options.zmq {
            if zmq == "auto" {
                let host = URL(string: options.url)?.host ?? "127.0.0.1"
                let discovering = provider
                provider.zmq = BitcoindZMQ(endpoint: { try await discovering.zmqEndpoint(host: host) })
            } else {
                provider.zmq = BitcoindZMQ(endpoint: { zmq })
            }
        }
        return provider
    }
}
