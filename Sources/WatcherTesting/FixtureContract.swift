import Testing
import WatcherCore

/// The contract kit for APIs the simnet does not speak: an adapter runs over real loopback HTTP against the
/// recorded bodies of its API (``FixtureServer``), and must keep the rules every ``ChainProvider`` keeps.
///
/// ```swift
/// @Test func contract() async throws {
///     try await FixtureContract.run(routes, samples: samples) { baseURL, http in
///         EsploraProvider(id: "esplora", baseURL: baseURL, http: http)
///     }
/// }
/// ```
/// `routes` answer the calls the samples lead to, with the API's real bodies (`rpc` for a JSON-RPC API, by method:
/// ``FixtureServer/RPCReply``); `notFound` is the API's own answer to an unknown block or transaction. See `docs/writing-a-provider.md`.
public enum FixtureContract {
    /// Builds the adapter under test for a base URL and a transport.
    public typealias Factory = ChainProviderContract.Factory

    /// The arguments the contract calls the adapter with: each one must be answered by the routes.
    public struct Samples: Sendable {
        /// A block height the routes answer, by height and by the hash its header names.
        public var height: Int
        /// An address whose summary the routes answer.
        public var address: String
        /// An address whose history the routes answer (the same as `address` if not given).
        public var historyAddress: String
        /// A second address, for batches (the same as `address` if the routes have only one).
        public var otherAddress: String
        /// A transaction the routes answer.
        public var txid: String
        /// A block hash and a txid the routes do not know: they get the API's not-found answer.
        public var unknownHash: String
        public var unknownTxid: String

        /// Creates samples.
        public init(
            height: Int,
            address: String,
            historyAddress: String? = nil,
            otherAddress: String? = nil,
            txid: String,
            unknownHash: String = String(repeating: "0", count: 64),
            unknownTxid: String = String(repeating: "f", count: 64)
        ) {
            self.height = height
            self.address = address
            self.historyAddress = historyAddress ?? address
            self.otherAddress = otherAddress ?? address
            self.txid = txid
            self.unknownHash = unknownHash
            self.unknownTxid = unknownTxid
        }
    }

    /// Runs ``agreement(_:notFound:samples:sourceLocation:make:)`` and
    /// ``failures(_:samples:errorBody:rateLimitBody:sourceLocation:make:)``.
    public static func run(
        _ routes: [String: FixtureServer.Answer],
        rpc: [String: FixtureServer.RPCReply] = [:],
        notFound: FixtureServer.Answer = .text("Not found", status: 404),
        samples: Samples,
        sourceLocation: SourceLocation = #_sourceLocation,
        make: @escaping Factory
    ) async throws {
        try await agreement(
            routes,
            rpc: rpc,
            notFound: notFound,
            samples: samples,
            sourceLocation: sourceLocation,
            make: make
        )
        try await failures(routes, rpc: rpc, samples: samples, sourceLocation: sourceLocation, make: make)
    }

    /// Every declared operation answers the samples by the rules: `tip()` makes `requestsPerTip` requests, the block
    /// asked for and no other, a summary
    /// whose balance is received minus sent, histories newest first with unique txids, `limit` and `after` kept,
    /// transactions whose fee is inputs minus outputs, unknown blocks and transactions `notFound`, undeclared
    /// operations `unsupported`.
    public static func agreement(
        _ routes: [String: FixtureServer.Answer],
        rpc: [String: FixtureServer.RPCReply] = [:],
        notFound: FixtureServer.Answer = .text("Not found", status: 404),
        samples: Samples,
        sourceLocation: SourceLocation = #_sourceLocation,
        make: @escaping Factory
    ) async throws {
        try await FixtureServer.with(routes, rpc: rpc, notFound: notFound) { server in
            let provider = try make(server.baseURL, server.http)
            let rules = FixtureRules(
                provider: provider,
                samples: samples,
                sourceLocation: sourceLocation,
                requestCount: { server.requests.count }
            )
            try await rules.check()
        }
    }

    /// Under each fault, every declared operation throws the right ``ProviderError`` naming the provider: a 503
    /// page → `unavailable(503)`, a held request or a trickled body → `timeout`, an HTML page, half a body or a
    /// JSON object of another shape with status 200 → `invalidResponse`, a 429 with `Retry-After: 30` →
    /// `rateLimited` after 30 s, a body over a 16-byte cap → `invalidResponse`, a closed port → `transport` or
    /// `timeout`. `errorBody` and `rateLimitBody` are the API's own pages for 503 and 429.
    public static func failures(
        _ routes: [String: FixtureServer.Answer],
        rpc: [String: FixtureServer.RPCReply] = [:],
        samples: Samples,
        errorBody: String = "<html><body><h1>503 Service Unavailable</h1></body></html>",
        rateLimitBody: String = "Too Many Requests",
        sourceLocation: SourceLocation = #_sourceLocation,
        make: @escaping Factory
    ) async throws {
        try await FixtureServer.with(routes, rpc: rpc) { server in
            let sweep = FixtureFailureSweep(
                server: server,
                samples: samples,
                errorBody: errorBody,
                rateLimitBody: rateLimitBody,
                sourceLocation: sourceLocation,
                make: make
            )
            try await sweep.run()
        }
    }
}
