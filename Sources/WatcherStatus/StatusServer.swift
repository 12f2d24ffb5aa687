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
    let application: Application<RouterResponder<BasicRequestContext>>

    /// Creates the server.
    /// - Parameters:
    ///   - host: the address to bind, `127.0.0.1` by default.
    ///   - port: the port (0 picks a free one; `onStarted` gets it).
    ///   - sources: what to serve.
    ///   - token: the bearer token writes need (`--http-token`); without one, writes are refused unless the
    ///     server listens on loopback only.
    ///   - logger: the logger.
    ///   - onStarted: receives the bound port.
    public init(
        host: String = "127.0.0.1",
        port: Int,
        sources: Sources,
        token: String? = nil,
        logger: Logger,
        onStarted: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        let router = Router()
        router.add(middleware: PlainErrors())
        let writes = WriteGuard(token: token, loopback: Self.isLoopback(host))
        StatusRoutes(sources: sources, writes: writes).add(to: router)
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
    /// Whether `host` (a bind address or a URL's host) is this machine only.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
    }
}
