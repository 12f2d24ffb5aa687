import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import WatcherCore

/// `GET /api/events/stream`: the durable event log as server-sent events. A client that reconnects with
/// `Last-Event-ID: <seq>` gets every event after it that the log still holds; without the header the stream starts
/// after the newest event. Each event's `id` is its sequence number and its `data` the same object as one entry of
/// `/api/events`. One ``EventBroadcaster`` reads the log for every client; beyond its client limit the answer is
/// 503 with `Retry-After`.
struct EventStream: Sendable {
    let broadcaster: EventBroadcaster

    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// Seconds a refused client is asked to wait.
    static let retryAfter = 5

    func response(_ request: Request, context: StatusRequestContext) -> Response {
        let resume = request.headers[Self.lastEventID].flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        let start: UInt64
        if let resume {
            start = resume
        } else {
            do {
                start = try broadcaster.data.lastSeq()
            } catch {
                return APIRoutes.error("the event log could not be read", status: .internalServerError)
            }
        }
        guard let subscription = broadcaster.subscribe(after: start) else {
            var response = APIRoutes.error(
                "the event stream serves \(broadcaster.limits.clients) clients at once; retry in \(Self.retryAfter) s",
                status: .serviceUnavailable
            )
            response.headers[.retryAfter] = "\(Self.retryAfter)"
            return response
        }
        let broadcaster = self.broadcaster
        let queue = subscription.queue
        context.onDisconnect { queue.close() }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                defer { broadcaster.unsubscribe(subscription) }
                try await withGracefulShutdownHandler {
                    try await Self.write(subscription, broadcaster, to: &writer)
                } onGracefulShutdown: {
                    subscription.queue.close()
                }
            }
        )
    }

    /// The retry hint, the client's catch-up from the log, then what the broadcaster queues for it until it leaves,
    /// is dropped, or the server shuts down.
    static func write(
        _ subscription: EventBroadcaster.Subscription,
        _ broadcaster: EventBroadcaster,
        to writer: inout any ResponseBodyWriter
    ) async throws {
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        while let chunk = try broadcaster.catchUp(subscription) {
            try await writer.write(chunk)
        }
        while let chunks = await subscription.queue.next() {
            for chunk in chunks { try await writer.write(chunk) }
        }
        try await writer.finish(nil)
    }
}
