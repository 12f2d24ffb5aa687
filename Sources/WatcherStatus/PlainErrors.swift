import HTTPTypes
import Hummingbird
import NIOCore

/// Every error answer the handlers did not write themselves (unknown path, wrong method, a failed read) is one
/// plain line, `404 Not Found`: no stack trace, no error type, nothing about the machine.
struct PlainErrors<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return Self.plain(error.status)
        } catch {
            return Self.plain(.internalServerError)
        }
    }

    static func plain(_ status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: "\(status.code) \(status.reasonPhrase)\n"))
        )
    }
}
