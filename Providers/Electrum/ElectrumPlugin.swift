import WatcherCore

/// The `electrum` plugin: an Electrum server (electrs, Fulcrum, ElectrumX) over its JSON-RPC line protocol.
public enum ElectrumPlugin: ProviderPlugin {
    /// Options of an `electrum` provider.
    public struct Options: ProviderOptions {
        /// `tcp://host:port` or `ssl://host:port`.
        public var url: String
        /// How an `ssl://` server's certificate is checked: `ca`, `pin` or `insecure`.
        public var tls: String
        /// The SHA-256 of the server's leaf certificate, for `tls: pin`.
        public var pin: String?
        /// How long a call (and the connection) may take.
        public var timeout: Duration
        /// The longest line read from the server.
        public var maxLineBytes: Int
        /// Whether to follow new headers and the followed addresses' scripthashes.
        public var push: Bool
        let endpoint: ElectrumEndpoint?

        /// The most addresses the push connection follows: every one (one subscription each).
        public static let pushCapacity = 1_000_000

        public var pushAddresses: Int? { push ? Self.pushCapacity : nil }

        public init(from reader: ObjectReader) {
            url = reader.string(
                "url",
                default: "tcp://127.0.0.1:50001",
                doc: "The server: tcp://host:port (electrs and Fulcrum listen on 50001 for mainnet, 60001 testnet, "
                    + "60601 signet; 60401 regtest), or ssl://host:port over TLS (50002 for mainnet)."
            )
            tls = reader.choice(
                "tls",
                ["ca", "pin", "insecure"],
                default: "ca",
                doc: "How an ssl:// server's certificate is checked: ca (the system's trust store and the host name), "
                    + "pin (the SHA-256 of the leaf certificate in `pin`: self-hosted servers use self-signed "
                    + "certificates), or insecure (not at all: anyone on the path can read and change the answers)."
            )
            pin = reader.string(
                "pin",
                doc: "With tls: pin, the leaf certificate's SHA-256 as sha256/<base64> (or sha256/<hex>): the DER "
                    + "bytes (`openssl x509 -in cert.pem -outform der`) hashed and base64-encoded."
            )
            timeout = reader.duration(
                "timeout",
                default: .seconds(30),
                doc: "How long one call, and opening the connection, may take."
            )
            maxLineBytes = reader.int(
                "maxLineBytes",
                default: 8 << 20,
                range: 1024...(64 << 20),
                doc: "The longest reply line accepted; a longer one drops the connection (ElectrumX and Fulcrum "
                    + "cap their sends at 8 MB)."
            )
            push = reader.bool(
                "push",
                default: true,
                doc: "Subscribe to new headers and to every followed address's scripthash on a second connection: "
                    + "a status change makes the engine read that address at once. Fulcrum caps subscriptions per "
                    + "IP (max_subs_per_ip, 75,000 by default)."
            )
            switch ElectrumEndpoint.parse(url) {
            case .success(var endpoint):
                if endpoint.tls != nil {
                    switch tls {
                    case "insecure": endpoint.tls = .insecure
                    case "pin":
                        if let text = pin, let digest = ElectrumTLS.pin(text) {
                            endpoint.tls = .pin(digest)
                        } else {
                            reader.context.error(
                                reader.path.key(pin == nil ? "tls" : "pin"),
                                pin == nil
                                    ? "tls: pin needs `pin`, the SHA-256 of the server's certificate (sha256/<base64>)"
                                    : "not a SHA-256 pin: write sha256/ and the 32-byte digest in base64 or hex"
                            )
                        }
                    default: endpoint.tls = .ca
                    }
                } else if pin != nil || tls != "ca" {
                    reader.context.error(reader.path.key(pin != nil ? "pin" : "tls"), "only an ssl:// url uses TLS")
                }
                self.endpoint = endpoint
            case .failure(let problem):
                self.endpoint = nil
                reader.context.error(reader.path.key("url"), problem.message)
            }
        }
    }

    public static let descriptor = PluginDescriptor.provider(
        type: "electrum",
        summary: "An Electrum server (electrs, Fulcrum, ElectrumX) over TCP or TLS: tip and headers, address balances "
            + "and histories by scripthash, raw transactions decoded locally; no block contents.",
        chain: [.status, .tip, .block, .headerBatch, .address, .addressTransactions, .transaction, .feeEstimate],
        // One connection to a server of your own; a concurrency cap keeps the pipeline short.
        defaultRateLimit: RateLimit(requests: 0, per: .seconds(1), concurrency: 8)
    )

    public static func makeChainProvider(id: String, options: Options, context: PluginContext) throws
        -> (any ChainProvider)?
    {
        guard let endpoint = options.endpoint else { return nil }
        return ElectrumProvider(
            id: id,
            endpoint: endpoint,
            chain: context.chain,
            timeout: options.timeout,
            maxLineLength: options.maxLineBytes,
            pushAddresses: options.pushAddresses
        )
    }
}
