import Hummingbird
import ServiceLifecycle
import WatcherBitcoin

/// The one Hummingbird responder behind every simnet path. It classifies the request, applies the
/// family's rate limit and fault plan, and hands the work to its face (``SimnetFace``) or ``ControlRouter``.
struct SimnetResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let world: SimnetWorld

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = Self.percentDecoded(request.uri.path)
        if path == "/control" || path.hasPrefix("/control/") {
            var request = request
            guard let body = try? await request.collectBody(upTo: 1 << 20) else {
                return Self.response(ControlRouter.error("request body over 1 MiB", status: 413))
            }
            let reply = ControlRouter(world: world).reply(
                method: request.method.rawValue,
                path: path,
                body: Array(body.readableBytesView)
            )
            return Self.response(reply)
        }
        if path == "/websocket", world.hub.offered {
            return world.hub.stats.banned
                ? Self.response(.text("Too many websocket connections", status: 429))
                : Self.response(.text("a websocket upgrade is expected here", status: 400))
        }
        guard let family = ProviderFamily(path: path) else {
            return Self.response(.text("Not Found", status: 404))
        }
        var query: [String: Substring] = [:]
        for (key, value) in request.uri.queryParameters where query[String(key)] == nil {
            query[String(key)] = value
        }
        if family == .bitcoind {
            return try await respondAsNode(to: request, path: path, query: query)
        }
        let admission = world.admit(family: family, path: path)
        return try await deliver(admission, family: family, path: path) { world, now in
            SimnetFaces.face(family).reply(path: path, query: query, world: world, now: now)
        }
    }

    /// The Bitcoin Core face: a full work queue refuses before anything else (as Core's HTTP server does), then the
    /// request is counted per JSON-RPC method or REST resource and answered from the snapshot.
    private func respondAsNode(to request: Request, path: String, query: [String: Substring]) async throws -> Response {
        var request = request
        guard let body = try? await request.collectBody(upTo: 32 << 20) else {
            return Self.response(.text("request body over 32 MiB", status: 413))
        }
        let bytes = Array(body.readableBytesView)
        let settings = world.node.currentSettings
        let isRPC = path == "/"
        let endpoints = isRPC ? NodeJSONRPC.endpoints(bytes) : [NodeREST.endpoint(path)]
        if settings.workQueueFull {
            _ = world.admit(family: .bitcoind, path: path, endpoints: endpoints)
            world.log(family: .bitcoind, path: path, status: 503, fault: nil)
            return Self.response(NodeFace.workQueueFull)
        }
        let admission = world.admit(family: .bitcoind, path: path, endpoints: endpoints)
        let method = request.method.rawValue
        let authorization = request.headers[.authorization]
        let (credentials, txindex, zmqEndpoint) = (world.node.credentials, world.node.txindex, world.zmq.endpoint)
        let coreVersion = world.node.version
        return try await deliver(admission, family: .bitcoind, path: path) { world, _ in
            if isRPC {
                return NodeJSONRPC(
                    rpc: NodeRPC(
                        chain: world.chain,
                        txindex: txindex,
                        syncing: settings.initialBlockDownload,
                        zmqEndpoint: zmqEndpoint,
                        chainName: settings.chain,
                        version: coreVersion,
                        feeRate: world.feeRate,
                        insufficientFeeData: settings.insufficientFeeData
                    ),
                    settings: settings,
                    credentials: credentials
                ).reply(httpMethod: method, authorization: authorization, body: bytes)
            }
            return NodeREST(chain: world.chain, settings: settings, txindex: txindex)
                .reply(httpMethod: method, path: path, query: query)
        }
    }

    /// Answers an admitted request: normally, rate-limited, or with the drawn fault applied to the real answer.
    private func deliver(
        _ admission: TrafficPolicy.Admission,
        family: ProviderFamily,
        path: String,
        render: (SimnetWorld.State, Double) -> SimReply
    ) async throws -> Response {
        switch admission {
        case .rateLimited(let retryAfter):
            var reply = FamilyErrors.rateLimited(family)
            reply.retryAfter = retryAfter
            return Self.response(reply)
        case .pass:
            let reply = render(world.snapshot(), world.clock.unixSeconds)
            world.log(family: family, path: path, status: reply.status, fault: nil)
            return Self.response(reply)
        case .fault(let kind, let status, let configuration):
            let state = world.snapshot()
            let now = world.clock.unixSeconds
            let real = render(state, now)
            switch kind {
            case .serverError:
                world.log(family: family, path: path, status: status, fault: kind)
                return Self.response(FamilyErrors.serverError(family, status: status))
            case .timeout:
                world.log(family: family, path: path, status: 504, fault: kind)
                // Hold far beyond any client budget, but let graceful shutdown release the request.
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: configuration.timeout) }
                return Self.response(FamilyErrors.serverError(family, status: 504))
            case .malformed:
                world.log(family: family, path: path, status: 200, fault: kind)
                return Self.response(
                    SimReply(status: 200, contentType: real.contentType, body: FamilyErrors.malformedBody)
                )
            case .truncated:
                world.log(family: family, path: path, status: real.status, fault: kind)
                var cut = real
                cut.body = Array(real.body.prefix(max(1, real.body.count / 2)))
                return Self.response(cut)
            case .wrongShape:
                world.log(family: family, path: path, status: 200, fault: kind)
                return Self.response(FamilyErrors.wrongShape(family, world: state, now: now))
            case .slow:
                world.log(family: family, path: path, status: real.status, fault: kind)
                return Self.response(real, trickleOver: configuration.slowDuration)
            }
        }
    }

    /// Converts a rendered reply; with `trickleOver`, the body goes out in 10 chunks spread over that time.
    static func response(_ reply: SimReply, trickleOver duration: Duration? = nil) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = reply.contentType
        if let retryAfter = reply.retryAfter { fields[.retryAfter] = String(retryAfter) }
        if let location = reply.location { fields[.location] = location }
        if let challenge = reply.wwwAuthenticate { fields[.wwwAuthenticate] = challenge }
        let status = HTTPResponse.Status(code: reply.status)
        return .bytes(reply.body, status: status, headers: fields, trickleOver: duration)
    }

    /// The path with `%XX` escapes decoded (invalid escapes are kept as they are).
    static func percentDecoded(_ path: String) -> String {
        guard path.contains("%") else { return path }
        var bytes: [UInt8] = []
        let utf8 = Array(path.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let value = Hex.decode(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self))?.first
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
