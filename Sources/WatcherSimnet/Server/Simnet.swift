import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import Synchronization

/// A deterministic simulated Bitcoin network served over real HTTP (Hummingbird 2): Blockbook,
/// blockchain.info-style, CoinDesk and Coinbase endpoints at the root, a Bitcoin Core node (JSON-RPC at
/// `POST /`, REST under `/rest/`) over the same chain of real blocks, plus a JSON control API under `/control/`.
///
/// ## Example
/// ```swift
/// let simnet = try await Simnet.start(SimnetConfiguration(seed: 42, port: 0))
/// defer { Task { await simnet.shutdown() } }
/// let url = simnet.baseURL  // "http://127.0.0.1:<port>"
/// let blocks = try await simnet.mine(count: 2)
/// ```
///
/// Use ``start(_:)`` and ``shutdown()`` from tests, or run it as a swift-service-lifecycle
/// `Service` in your own `ServiceGroup` (graceful shutdown stops it) and read the port with
/// ``waitUntilRunning()``.
public final class Simnet: Service {
    /// Errors from starting or controlling the simnet.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The server stopped before it was listening.
        case notRunning(String)
        /// The address is not a valid mainnet address.
        case invalidAddress(String, SimAddressParser.Failure)
        /// A chain operation was refused.
        case chain(ChainModel.Failure)

        public var description: String {
            switch self {
            case .notRunning(let reason): "simnet is not running: \(reason)"
            case .invalidAddress(let text, let failure): "invalid address \(text): \(failure)"
            case .chain(let failure): failure.description
            }
        }
    }

    private enum RunState: Sendable {
        case waiting([CheckedContinuation<Int, any Error>])
        case running(port: Int)
        case stopped(String)
    }

    /// The configuration it was created with.
    public let configuration: SimnetConfiguration
    let world: SimnetWorld
    private let state = Mutex<RunState>(.waiting([]))
    private let task = Mutex<Task<Void, any Error>?>(nil)
    private let group = Mutex<ServiceGroup?>(nil)

    /// Builds the chain; does not bind a port until ``run()`` or ``start(_:)``.
    public init(configuration: SimnetConfiguration) {
        self.configuration = configuration
        self.world = SimnetWorld(configuration: configuration)
    }

    /// Creates a simnet, runs it in a background task and returns once it is listening.
    /// - Throws: ``Failure/notRunning(_:)`` when the server cannot bind.
    public static func start(_ configuration: SimnetConfiguration) async throws -> Simnet {
        let simnet = Simnet(configuration: configuration)
        let running = Task { try await simnet.run() }
        simnet.task.withLock { $0 = running }
        do {
            _ = try await simnet.waitUntilRunning()
        } catch {
            running.cancel()
            _ = await running.result
            throw error
        }
        return simnet
    }

    /// Stops a simnet started with ``start(_:)`` gracefully and waits until the port is closed.
    /// Requests held by a `timeout` fault are released (answered 504) rather than waited for.
    public func shutdown() async {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        guard let running else { return }
        await group.withLock { $0 }?.triggerGracefulShutdown()
        _ = await running.result
    }

    /// Serves HTTP (and mines on the ``SimnetConfiguration/blockInterval`` timer) until graceful
    /// shutdown of the enclosing `ServiceGroup`, ``shutdown()``, or cancellation.
    /// - Throws: when the server cannot bind or fails.
    public func run() async throws {
        let world = self.world
        let app = Application(
            responder: SimnetResponder(world: world),
            // Frames up to 4 MiB, as Blockbook takes (reference §3): `subscribeAddresses` with its 1,000 addresses is
            // about 45 KB, past hummingbird-websocket's 16 KiB default.
            server: .http1WebSocketUpgrade(configuration: .init(ws: .init(maxFrameSize: 4 << 20))) {
                request,
                channel,
                _ in
                // Banned clients fall through to the responder, which answers 429 as Blockbook does.
                guard request.path == "/websocket", world.hub.offered, !world.hub.refuses() else {
                    return .dontUpgrade
                }
                return .upgrade([:]) { inbound, outbound, _ in
                    try await PushSession(world: world, channel: channel).serve(inbound, outbound)
                }
            },
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { [self] channel in didBind(port: channel.localAddress?.port ?? configuration.port) },
            logger: configuration.logger
        )
        var services: [any Service] = [app]
        if let interval = configuration.blockInterval, interval > .zero {
            services.append(BlockTimer(world: world, interval: interval))
        }
        let serviceGroup = ServiceGroup(configuration: .init(services: services, logger: configuration.logger))
        group.withLock { $0 = serviceGroup }
        do {
            try world.node.writeCookie()
        } catch {
            didStop("cannot write the cookie file \(configuration.cookieFile ?? ""): \(error)")
            throw error
        }
        defer { world.node.removeCookie() }
        if let endpoint = configuration.zmq {
            do {
                _ = try world.zmq.bind(endpoint)
            } catch {
                didStop("cannot bind ZMQ \(endpoint): \(error)")
                throw error
            }
        }
        defer { world.zmq.close() }
        if let port = configuration.electrumPort {
            do {
                _ = try await world.electrum.bind(
                    host: configuration.host,
                    port: port,
                    tls: configuration.electrumTLS,
                    world: world
                )
            } catch {
                didStop("cannot bind the Electrum port \(port): \(error)")
                throw error
            }
        }
        do {
            try await serviceGroup.run()
            await world.electrum.close()
            didStop("the server finished")
        } catch {
            await world.electrum.close()
            didStop("\(error)")
            throw error
        }
    }

    /// Waits until the server is listening.
    /// - Returns: the bound port.
    /// - Throws: ``Failure/notRunning(_:)`` if the server stopped first.
    @discardableResult
    public func waitUntilRunning() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                case .running(let port): return .success(port)
                case .stopped(let reason): return .failure(Failure.notRunning(reason))
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The bound port (0 until listening).
    public var port: Int {
        state.withLock { state in
            if case .running(let port) = state { return port }
            return 0
        }
    }

    /// The ZMQ endpoint publishing `hashblock` and `sequence`, with its port; `nil` when ZMQ is off or not bound yet.
    public var zmqEndpoint: String? { world.zmq.endpoint }

    /// The Electrum face's port; `nil` when it is off.
    public var electrumPort: Int? { world.electrum.port }
    /// The Electrum face's certificate pin (`sha256/<base64>`) when it serves TLS (``SimnetConfiguration/electrumTLS``).
    public var electrumPin: String? { world.electrum.pin }

    /// `http://<host>:<port>`, the root of every endpoint.
    public var baseURL: String {
        "http://\(configuration.host):\(port)"
    }

    private func didBind(port: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .running(port: port)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: port) }
    }

    private func didStop(_ reason: String) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            defer { state = .stopped(reason) }
            guard case .waiting(let waiters) = state else { return [] }
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: Failure.notRunning(reason)) }
    }
}
