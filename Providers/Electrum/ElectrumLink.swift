import WatcherCore
import WatcherJSON

/// The provider's one long-lived connection: opened on first use with `server.version` then `server.features`
/// (genesis and hash function checked), kept alive with `server.ping`, and reopened after a loss with exponential
/// backoff (1 s doubling to 60 s). Errors come out as ``ProviderError``s naming the provider.
actor ElectrumLink {
    /// What the server said about itself at session start.
    struct Server: Sendable, Equatable {
        var software: String
        var version: String
    }

    let provider: String
    let endpoint: ElectrumEndpoint
    let expectedGenesis: String?
    let timeout: Duration
    let maxLineLength: Int
    private var client: ElectrumClient?
    private var connecting: Task<(ElectrumClient, Server), any Error>?
    private var failures = 0
    private var retryAt: ContinuousClock.Instant?
    /// Why the last attempt failed: repeated while backing off, so a chain mismatch stays a chain mismatch.
    private var lastFailure: ProviderError?
    private(set) var server: Server?
    /// The methods this session's server answered -32601 "method not found": asked no more until a new session.
    private(set) var missing: Set<String> = []

    init(provider: String, endpoint: ElectrumEndpoint, expectedGenesis: String?, timeout: Duration, maxLineLength: Int)
    {
        self.provider = provider
        self.endpoint = endpoint
        self.expectedGenesis = expectedGenesis
        self.timeout = timeout
        self.maxLineLength = maxLineLength
    }

    /// One call on the connection, opened first if needed.
    func call(_ method: String, _ params: [JSONValue] = []) async throws -> JSONValue {
        let client = try await connected()
        guard !missing.contains(method) else { throw ProviderError.unsupported(provider: provider, operation: method) }
        do {
            return try await client.call(method, params, timeout: timeout)
        } catch {
            let mapped = map(error, method: method)
            if case .unsupported = mapped, self.client === client { missing.insert(method) }
            throw mapped
        }
    }

    /// The open connection, opening it (or waiting for the attempt under way).
    func connected() async throws -> ElectrumClient {
        if let client, !client.isClosed { return client }
        if let connecting { return try await connecting.value.0 }
        if let retryAt, ContinuousClock.now < retryAt {
            throw lastFailure
                ?? ProviderError.transport(provider: provider, detail: "\(endpoint): backing off after a failure")
        }
        let task = Task { try await open() }
        connecting = task
        defer { connecting = nil }
        do {
            let (client, server) = try await task.value
            self.client = client
            self.server = server
            missing = []
            failures = 0
            retryAt = nil
            lastFailure = nil
            return client
        } catch {
            failures += 1
            retryAt = ContinuousClock.now + .seconds(min(60, 1 << min(failures - 1, 6)))
            lastFailure = map(error, method: "connect")
            throw lastFailure ?? error
        }
    }

    /// Closes the connection (a later call reopens it).
    func close() {
        client?.close()
        client = nil
    }

    /// The request connection: notifications on it (the header subscription `tip()` makes) are not needed, the push
    /// has a connection of its own; a loss forgets the client, so the next call reconnects.
    private func open() async throws -> (ElectrumClient, Server) {
        try await openSession(
            onNotification: { _, _ in },
            onClose: { [weak self] _ in
                Task { await self?.lost() }
            }
        )
    }

    /// A new connection with its session started (version, features, genesis checked), for this link or for a
    /// push connection of its own.
    nonisolated func openSession(
        onNotification: @escaping @Sendable (String, [JSONValue]) -> Void,
        onClose: @escaping @Sendable (String) -> Void
    ) async throws -> (ElectrumClient, Server) {
        let client: ElectrumClient
        do {
            client = try await ElectrumClient.connect(
                host: endpoint.host,
                port: endpoint.port,
                tls: endpoint.tls,
                connectTimeout: timeout,
                maxLineLength: maxLineLength,
                keepAlive: .seconds(300),
                onNotification: onNotification,
                onClose: onClose
            )
        } catch {
            throw map(error, method: "connect")
        }
        do {
            let version = try await client.call(
                "server.version",
                [.string("watcher/0.1"), .array([.string("1.4"), .string("1.6")])],
                timeout: timeout
            )
            guard let software = version[0]?.stringValue, let negotiated = version[1]?.stringValue else {
                throw ProviderError.invalidResponse(
                    provider: provider,
                    detail: "server.version answered \(version.serialized()), not [software, version]"
                )
            }
            let features = try await client.call("server.features", [], timeout: timeout)
            if let hashFunction = features["hash_function"]?.stringValue, hashFunction != "sha256" {
                throw ProviderError.invalidResponse(
                    provider: provider,
                    detail: "server.features hash_function is \(hashFunction), not sha256"
                )
            }
            if let expectedGenesis {
                let genesis = features["genesis_hash"]?.stringValue ?? "(none)"
                guard genesis == expectedGenesis else {
                    throw ProviderError.badRequest(provider: provider, detail: Self.mismatch(genesis, expectedGenesis))
                }
            }
            return (client, Server(software: software, version: negotiated))
        } catch {
            client.close()
            throw map(error, method: "session start")
        }
    }

    private func lost() {
        if let client, client.isClosed { self.client = nil }
    }

    /// ElectrumX's error for a history longer than its limit.
    static let historyTooLarge = 10001

    /// The words of a genesis mismatch, the same in health, `check` and calls.
    static func mismatch(_ server: String, _ expected: String) -> String {
        "chain mismatch: the server's genesis block is \(server) but the provider's chain wants \(expected)"
    }

    /// Whether a failed handshake's reason says the server answered the ClientHello with something other than TLS:
    /// BoringSSL's `WRONG_VERSION_NUMBER` (an Electrum server's JSON error line), or a request it took for HTTP.
    static func isPlainTCPAnswer(_ reason: String) -> Bool {
        ["WRONG_VERSION_NUMBER", "HTTP_REQUEST", "HTTPS_PROXY_REQUEST"].contains { reason.contains($0) }
    }

    /// A failed handshake in words: BoringSSL's reason code (`TLSV1_ALERT_PROTOCOL_VERSION`), without the error's
    /// Swift type and the build path of the BoringSSL source it carries.
    static func handshakeReason(_ reason: String) -> String {
        let code = reason.split(whereSeparator: { !($0.isUppercase || $0.isNumber || $0 == "_") })
            .last { $0.count > 3 && $0.contains("_") }
        return "the handshake failed" + (code.map { " (\($0))" } ?? "")
    }

    /// Why a TLS handshake's certificate check failed, in the terms of the options.
    static func certificateRefused(_ tls: ElectrumTLS?) -> String {
        switch tls {
        case .pin: "TLS: the server's certificate does not match `pin` (a new certificate needs a new pin)"
        default:
            "TLS: the server's certificate is not trusted by the system's store (a self-signed one needs "
                + "\"tls\": \"pin\" with its SHA-256)"
        }
    }

    /// A client failure as the provider's error.
    nonisolated func map(_ error: any Error, method: String) -> ProviderError {
        if let error = error as? ProviderError { return error }
        guard let failure = error as? ElectrumClient.Failure else {
            return .transport(provider: provider, detail: "\(error)")
        }
        switch failure {
        case .server(let code?, _) where code == -32601:
            return .unsupported(provider: provider, operation: method)
        case .server(4, let message):
            // Fulcrum's cap is a limit of the server's setup, not a rate: waiting does not lift it.
            return .badRequest(
                provider: provider,
                detail: "\(method): \(message) (subscription limit; raise the server's max_subs_per_ip)"
            )
        case .server(-32603, let message):
            // electrs while it builds or compacts its index: only version and headers are answered meanwhile.
            return .unavailable(
                provider: provider,
                status: nil,
                detail: "\(method): \(message): the server is still indexing (electrs answers -32603 until its "
                    + "index is built or compacted)"
            )
        case .server(Self.historyTooLarge, let message):
            return .badRequest(
                provider: provider,
                detail: "\(method): error \(Self.historyTooLarge): \(message) (longer than the server's history limit)"
            )
        case .server(_, let message) where message.contains("No such mempool or blockchain transaction"):
            return .notFound(provider: provider, what: "\(method) \(message)")
        case .server(let code, let message):
            return .badRequest(
                provider: provider,
                detail: "\(method): error \(code.map(String.init) ?? "-"): \(message)"
            )
        case .closed(let reason) where reason.contains("CERTIFICATE_VERIFY_FAILED"):
            return .transport(provider: provider, detail: "\(endpoint): \(Self.certificateRefused(endpoint.tls))")
        case .closed(let reason) where endpoint.tls != nil && Self.isPlainTCPAnswer(reason):
            return .transport(provider: provider, detail: "\(endpoint): the server does not speak TLS (a tcp:// port?)")
        case .closed(let reason) where reason.contains("handshakeFailed"):
            return .transport(provider: provider, detail: "\(endpoint): TLS: \(Self.handshakeReason(reason))")
        case .closed(let reason):
            return .transport(provider: provider, detail: "\(endpoint): \(reason)")
        case .timeout(let after):
            return .timeout(provider: provider, after: after)
        case .malformed(let detail):
            return .invalidResponse(provider: provider, detail: detail)
        }
    }
}

/// Where the server listens: `tcp://host:port` (or `ssl://host:port`, refused until TLS is supported).
struct ElectrumEndpoint: Sendable, Hashable, CustomStringConvertible {
    var host: String
    var port: Int
    /// How the certificate is checked: `nil` for `tcp://`, set for `ssl://` (`ca` unless the options say).
    var tls: ElectrumTLS?

    /// Parses `tcp://host:port` or `ssl://host:port`; the problem in words otherwise.
    static func parse(_ text: String) -> Result<ElectrumEndpoint, ElectrumEndpointProblem> {
        let lower = text.lowercased()
        let scheme = ["tcp://", "ssl://", "tls://"].first { lower.hasPrefix($0) }
        guard let scheme else {
            return .failure(
                ElectrumEndpointProblem(message: "'\(text)' must look like tcp://host:port or ssl://host:port")
            )
        }
        let rest = text.dropFirst(scheme.count)
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
            (1...65_535).contains(port)
        else {
            return .failure(
                ElectrumEndpointProblem(
                    message: "'\(text)' needs a port, e.g. tcp://127.0.0.1:50001 or ssl://electrum.local:50002"
                )
            )
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return .failure(ElectrumEndpointProblem(message: "'\(text)' needs a host")) }
        return .success(ElectrumEndpoint(host: host, port: port, tls: scheme == "tcp://" ? nil : .ca))
    }

    var description: String { "\(tls == nil ? "tcp" : "ssl")://\(host):\(port)" }
}

/// Why an endpoint text is refused.
struct ElectrumEndpointProblem: Error, Sendable {
    var message: String
}
