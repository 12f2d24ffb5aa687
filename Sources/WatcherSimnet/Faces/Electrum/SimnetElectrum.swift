import Foundation
import NIOCore
import NIOPosix
import Synchronization
import WatcherJSON

/// The simnet's Electrum face: newline-delimited JSON-RPC over plain TCP, served from the same chain as the other
/// faces, with scripthash and header notifications after every chain change. Off until ``bind(host:port:world:)``.
final class SimnetElectrum: Sendable {
    /// The longest request line read (servers cap theirs; reference nodes.md §2.1).
    static let maxLineLength = 1 << 20

    private let settings: Mutex<ElectrumSettings>
    private let book = Mutex(ScripthashBook())
    private let connections = Mutex<[ObjectIdentifier: ElectrumConnection]>([:])
    private let listener = Mutex<(any Channel)?>(nil)
    private let tlsPin = Mutex<String?>(nil)
    /// Serializes chain-change publication, so every connection sees changes in order.
    private let publishing = Mutex(())
    /// The lagging chain last made, by the tip hash, mempool sequence and lag it was made from.
    private let lagged = Mutex<(key: String, chain: ChainModel)?>(nil)

    init(settings: ElectrumSettings) {
        self.settings = Mutex(settings)
    }

    /// The face's switches.
    var currentSettings: ElectrumSettings { settings.withLock { $0 } }

    func set(_ new: ElectrumSettings) {
        settings.withLock { $0 = new }
    }

    /// Listens on `host:port` (`0`: any free port), over TLS with a fresh self-signed certificate when `tls`.
    /// - Returns: the port bound.
    func bind(host: String, port: Int, tls: Bool = false, world: SimnetWorld) async throws -> Int {
        let certificate = try tls ? ElectrumCertificate() : nil
        tlsPin.withLock { $0 = certificate?.pin }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    if let certificate { try channel.pipeline.syncOperations.addHandler(certificate.handler()) }
                    let connection = ElectrumConnection(channel: channel)
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(ElectrumLineDecoder(maxLength: Self.maxLineLength))
                    )
                    try channel.pipeline.syncOperations.addHandler(
                        ElectrumHandler(face: self, world: world, connection: connection)
                    )
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        listener.withLock { $0 = channel }
        return channel.localAddress?.port ?? port
    }

    /// The pin of the TLS certificate (`sha256/<base64>`), `nil` over plain TCP.
    var pin: String? { tlsPin.withLock { $0 } }

    /// The bound port, `nil` when off.
    var port: Int? { listener.withLock { $0?.localAddress?.port } }

    /// Stops listening and closes every connection.
    func close() async {
        let channel = listener.withLock { listener in
            defer { listener = nil }
            return listener
        }
        try? await channel?.close()
        let open = connections.withLock { $0.values }
        for connection in open { try? await connection.channel.close() }
    }

    /// How many clients are connected.
    var connectionCount: Int { connections.withLock { $0.count } }

    /// Closes every client connection (the listener stays), as a server restart or a network cut does.
    func dropConnections() {
        for connection in connections.withLock({ Array($0.values) }) { connection.channel.close(promise: nil) }
    }

    func add(_ connection: ElectrumConnection) {
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    func remove(_ connection: ElectrumConnection) {
        connections.withLock { $0[ObjectIdentifier(connection)] = nil }
    }

    /// Answers one request line on `connection`, counting each method in the `electrum` family's statistics.
    func answer(_ line: [UInt8], on connection: ElectrumConnection, world: SimnetWorld) {
        guard let parsed = try? JSONValue.parse(line) else {
            _ = world.admit(family: .electrum, path: "/", endpoints: ["(unparseable)"])
            connection.send([ElectrumSession.envelope(id: .null, .failure(.parse))])
            return
        }
        let methods = (parsed.arrayValue ?? [parsed]).map { $0["method"]?.stringValue ?? "(no method)" }
        _ = world.admit(family: .electrum, path: methods.first ?? "/", endpoints: methods)
        let settings = currentSettings
        let state = world.snapshot()
        let indexed = self.world(state.chain, lag: settings.indexLag, feeRate: state.feeRate)
        connection.session.withLock { session in
            let reply = session.reply(to: parsed, world: indexed, settings: settings)
            connection.send(reply.json.map { [$0] } ?? [], close: reply.close)
        }
    }

    /// Sends every connection the notifications the chain's latest state owes it.
    func chainChanged(world: SimnetWorld) {
        publishing.withLock { _ in
            let open = connections.withLock { Array($0.values) }
            guard !open.isEmpty else { return }
            var settings = currentSettings
            let state = world.snapshot()
            let indexed = self.world(state.chain, lag: settings.indexLag, feeRate: state.feeRate)
            for connection in open {
                connection.session.withLock { session in
                    connection.send(session.notifications(world: indexed, settings: &settings))
                }
            }
            let remaining = settings.dropNotifications
            self.settings.withLock { $0.dropNotifications = min($0.dropNotifications, remaining) }
        }
    }

    /// The world the index serves: the chain, or the chain `lag` blocks back (made once per chain state), and the
    /// fee rate.
    private func world(_ real: ChainModel, lag: Int, feeRate: Decimal) -> ElectrumWorld {
        let chain = lag > 0 ? lagging(real, by: lag) : real
        return ElectrumWorld(chain: chain, feeRate: feeRate) { [self] scripthash in
            self.book.withLock { $0.address(scripthash, in: chain) }
        }
    }

    private func lagging(_ real: ChainModel, by lag: Int) -> ChainModel {
        let key = "\(real.tip.hash) \(real.mempoolSequence) \(lag)"
        if let made = lagged.withLock({ $0?.key == key ? $0?.chain : nil }) { return made }
        let chain = real.lagging(by: lag)
        lagged.withLock { $0 = (key, chain) }
        return chain
    }
}
