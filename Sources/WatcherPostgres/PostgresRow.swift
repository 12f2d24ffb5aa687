import WatcherCore
import WatcherJSON

/// One event as a table row, read from its CloudEvents envelope.
struct PostgresRow: Sendable, Equatable {
    var id: String
    var type: String
    var subject: String?
    var source: String?
    /// ISO 8601, cast to `timestamptz` by the server.
    var time: String?
    /// The envelope's `data`, serialized.
    var data: String?

    /// The row for `event`; `nil` when its body is not a JSON object (such an event is dead-lettered).
    init?(_ event: SinkEvent) {
        guard let envelope = try? JSONValue.parse(event.body), envelope.members != nil else { return nil }
        id = event.id
        type = event.type
        subject = envelope["subject"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        source = envelope["source"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        time = envelope["time"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        data = envelope["data"].map { $0.serialized() }
    }
}
