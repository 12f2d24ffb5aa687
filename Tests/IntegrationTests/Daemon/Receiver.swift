import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization
import WatcherSinks
import WatcherTesting

/// A real webhook receiver on loopback: records every request, verifies its Standard Webhooks signature, and
/// can fail its first attempts or be switched off.
final class Receiver: Sendable {
    struct Delivery: Sendable {
        var id: String
        var type: String
        var signatureValid: Bool
        var body: [UInt8]
    }

    let secret: String
    private let state = Mutex<(attempts: Int, delivered: [Delivery], failFirst: Int, down: Bool)>((0, [], 0, false))

    init(secret: String, failFirst: Int = 0) {
        self.secret = secret
        state.withLock { $0.failFirst = failFirst }
    }

    var delivered: [Delivery] { state.withLock { $0.delivered } }
    var attempts: Int { state.withLock { $0.attempts } }
    func setDown(_ down: Bool) { state.withLock { $0.down = down } }

    func handle(_ request: Request) async throws -> Response {
        let body = Array(buffer: try await request.body.collect(upTo: 1 << 20))
        let id = request.headers[HTTPField.Name("webhook-id")!] ?? ""
        let timestamp = Int(request.headers[HTTPField.Name("webhook-timestamp")!] ?? "") ?? 0
        let signature = request.headers[HTTPField.Name("webhook-signature")!] ?? ""
        let valid = WebhookSignature.verify(secret: secret, id: id, timestamp: timestamp, body: body, header: signature)
        let accept = state.withLock { state -> Bool in
            state.attempts += 1
            if state.down || state.attempts <= state.failFirst { return false }
            if !state.delivered.contains(where: { $0.id == id }) {
                let type = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["type"] as? String
                state.delivered.append(Delivery(id: id, type: type ?? "", signatureValid: valid, body: body))
            }
            return true
        }
        return Response(status: accept ? .noContent : .internalServerError)
    }

    /// Runs a server for this receiver until `body` returns; gives the URL.
    func serve<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.post("hook") { request, _ in try await self.handle(request) }
        return try await LoopbackServer.with(router.buildResponder()) { port in
            try await body("http://127.0.0.1:\(port)/hook")
        }
    }
}
