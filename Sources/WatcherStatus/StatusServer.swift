import Foundation
import Hummingbird
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle
import WatcherCore
import WatcherStorage

/// `watcher run --http 127.0.0.1:9110`: the web UI at `/`, `/healthz`, `/metrics` (Prometheus text) and the JSON
/// API under `/api/` (`docs/openapi.yaml`). Binds to loopback unless told otherwise; see ``WriteGuard`` for who
/// may add and remove accounts.
public struct StatusServer: Service {
    let application: Application<RouterResponder<StatusRequestContext>>

    /// Creates the server.
    /// - Parameters:
    ///   - host: the address to bind, `127.0.0.1` by default.
    ///   - port: the port (0 picks a free one; `onStarted` gets it).
    ///   - sources: what to serve.
    ///   - token: the bearer token writes need (`--http-token`); without one, writes are refused unless the
    ///     server listens on loopback only.
    ///   - streamClients: how many `/api/events/stream` clients are served at once; the next gets 503.
    ///   - logger: the logger.
    ///   - onStarted: receives the bound port.
    public init(
        host: String = "127.0.0.1",
        port: Int,
        sources: Sources,
        token: String? = nil,
        streamClients: Int = 64,
        logger: Logger,
        onStarted: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        let router = Router(context: StatusRequestContext.self)
        router.add(middleware: PlainErrors())
        let writes = WriteGuard(token: token, loopback: Self.isLoopback(host), bound: host)
        var limits = EventBroadcaster.Limits()
        limits.clients = streamClients
        StatusRoutes(sources: sources, writes: writes, streamLimits: limits).add(to: router)
        application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "watcher"),
            onServerRunning: { channel in await onStarted(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    public func run() async throws {
        try await application.run()
    }
}

extension StatusServer {
    /// Whether `host` (a bind address, a `Host` header or a URL's host, with or without a port) names this machine
    /// only: an IPv4 literal in 127.0.0.0/8 or `::1` as `inet_pton` parses them, or exactly `localhost`, or exactly
    /// `bound` (the address the server listens on). Names are compared whole, never by prefix or suffix:
    /// `127.0.0.1.attacker.example` and `evil.localhost` resolve wherever their owner wants (DNS rebinding).
    public static func isLoopback(_ host: String, bound: String? = nil) -> Bool {
        guard let name = hostName(host) else { return false }
        if name == "localhost" { return true }
        if let bound, let boundName = hostName(bound), name == boundName { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            var loopback = in6_addr()
            _ = inet_pton(AF_INET6, "::1", &loopback)
            return withUnsafeBytes(of: v6) { a in withUnsafeBytes(of: loopback) { b in a.elementsEqual(b) } }
        }
        return false
    }

    /// The host of `text` (`host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 literal), lower-cased and without
    /// the port; `nil` when it is empty or malformed.
    static func hostName(_ text: String) -> String? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else {
                return nil
            }
            let inner = String(text[text.index(after: text.startIndex)..<close])
            return inner.isEmpty ? nil : inner
        }
        let colons = text.filter { $0 == ":" }.count
        if colons == 1, let colon = text.firstIndex(of: ":") {
            guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            let name = String(text[..<colon])
            return name.isEmpty ? nil : name
        }
        return text.isEmpty ? nil : text
    }
}

extension Character {
    /// `0`-`9` only (not the other Unicode digits `isNumber` accepts).
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
