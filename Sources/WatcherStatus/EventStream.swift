import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import WatcherCore

/// `GET /api/events/stream`: the durable event log as server-sent events, read from the store (not from memory),
/// so a client that reconnects with `Last-Event-ID: <seq>` gets every event after it that the log still holds.
/// Without the header the stream starts after the newest event. Each event's `id` is its sequence number and its
/// `data` the same object as one entry of `/api/events`.
struct EventStream: Sendable {
    let data: StatusData
    /// How often the log is read for new entries.
    var poll: Duration = .milliseconds(500)
    /// A comment line this often keeps proxies from closing an idle stream.
    var keepAlive: Duration = .seconds(15)

    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    func response(_ request: Request) -> Response {
        let resume = request.headers[Self.lastEventID].flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        let start: UInt64
        if let resume {
            start = resume
        } else {
            do {
                start = try data.lastSeq()
            } catch {
                return APIRoutes.error("the event log could not be read", status: .internalServerError)
            }
        }
        let stream = self
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in try await stream.write(after: start, to: &writer) }
        )
    }

    func write(after start: UInt64, to writer: inout any ResponseBodyWriter) async throws {
        var last = start
        var quiet = Duration.zero
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let batch = try data.events(after: last, limit: 200)
            if batch.isEmpty {
                if quiet >= keepAlive {
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    quiet = .zero
                }
                try await Task.sleep(for: poll)
                quiet += poll
                continue
            }
            var text = ""
            for event in batch {
                text += "id: \(event.seq)\ndata: \(event.json.serialized())\n\n"
                last = event.seq
            }
            try await writer.write(ByteBuffer(string: text))
            quiet = .zero
        }
        try await writer.finish(nil)
    }
}
