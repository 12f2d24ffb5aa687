import Hummingbird
import NIOCore
import WatcherCore
import WatcherJSON

/// The rules every JSON write body is read by (`POST /api/accounts`, `POST /api/wallets/{id}/next`), so that a
/// refused body is refused the same way everywhere and before anything is changed: at most ``maxBytes`` (413 past
/// it, by `Content-Length` or by what arrives), a JSON object, and a `label` that is a string within
/// ``LabelRule`` (400 otherwise).
enum WriteBody {
    /// The largest request body read.
    static let maxBytes = 16 * 1024

    /// A body refused, with the answer to give.
    struct Refusal: Error {
        let response: Response
    }

    /// The body's bytes (empty when there is none).
    /// - Throws: a 413 ``Refusal`` when it is larger than ``maxBytes``.
    static func collect(_ request: Request) async throws(Refusal) -> ByteBuffer {
        let tooLarge = Refusal(
            response: APIRoutes.error(
                "the request body is larger than \(maxBytes) bytes (\(maxBytes / 1024) KiB), the limit",
                status: .contentTooLarge
            )
        )
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes { throw tooLarge }
        do {
            return try await request.body.collect(upTo: maxBytes)
        } catch {
            throw tooLarge
        }
    }

    /// The body as a JSON object; `nil` for an empty body when `optional`.
    /// - Throws: a 413 or 400 ``Refusal``; `shape` is the expected object, for the 400's message.
    static func object(_ request: Request, shape: String, optional: Bool = false) async throws(Refusal) -> JSONValue? {
        let body = try await collect(request)
        if optional, body.readableBytes == 0 { return nil }
        guard let object = try? JSONValue.parse(Array(buffer: body)), object.members != nil else {
            let message = "expected a JSON object \(shape)" + (optional ? " or no body" : "")
            throw Refusal(response: APIRoutes.error(message, status: .badRequest))
        }
        return object
    }

    /// The object's `label`: `nil` when absent, `null` or empty.
    /// - Throws: a 400 ``Refusal`` for a label that is not a string or is longer than ``LabelRule`` allows.
    static func label(_ object: JSONValue?) throws(Refusal) -> String? {
        guard let value = object?["label"] else { return nil }
        switch value {
        case .null: return nil
        case .string(let text):
            if let problem = LabelRule.problem(text) {
                throw Refusal(response: APIRoutes.error(problem, status: .badRequest))
            }
            return text.isEmpty ? nil : text
        default:
            throw Refusal(
                response: APIRoutes.error("label must be a string, got \(value.typeDescription)", status: .badRequest)
            )
        }
    }
}
