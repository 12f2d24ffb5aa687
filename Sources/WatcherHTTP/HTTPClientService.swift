import AsyncHTTPClient
import Logging
import NIOCore
import ServiceLifecycle

/// Owns the process-wide `HTTPClient` and shuts it down at graceful shutdown. List it **before** the services
/// that use it: a `ServiceGroup` shuts services down in reverse order.
public struct HTTPClientService: Service {
    /// The client.
    public let client: HTTPClient

    /// Creates the client with tight daemon settings: 5 s connect, 15 s read gap, and no decompression. The client
    /// follows no redirect itself: ``HTTPTransport`` follows them per request, so a webhook delivery never does.
    public init(logger: Logger) {
        var config = HTTPClient.Configuration.untraced
        config.timeout = .init(connect: .seconds(5), read: .seconds(15))
        config.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 8)
        config.redirectConfiguration = .disallow
        // No Accept-Encoding is sent, and responses are not decompressed: no gzip bombs past the body cap.
        config.decompression = .disabled
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: config,
            backgroundActivityLogger: logger
        )
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }

    /// Shuts the client down when it was never run by a group (start-up failed).
    public func shutdown() async {
        try? await client.shutdown()
    }
}

extension HTTPClient.Configuration {
    /// The default configuration without spans: watcher bootstraps no tracer, and the no-op span's attributes
    /// crashed a test run once (a bad pointer in `swift_dynamicCast` under `SpanAttributes`, inside
    /// async-http-client's tracing support). Every client of the process and of the tests starts from it.
    public static var untraced: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.tracing.tracer = nil
        return configuration
    }
}
