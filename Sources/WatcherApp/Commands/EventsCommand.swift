import ArgumentParser
import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherDelivery
import WatcherSinks
import WatcherStorage

#if canImport(Glibc)
    import Glibc
#endif

/// `watcher events`: reads the durable event log.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Read the durable event log.",
        subcommands: [List.self]
    )

    /// `watcher events list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List logged events, oldest first.",
            discussion: """
                Opens the store read-only, so it works while `watcher run` runs on the same data directory.
                The log keeps events until every sink has passed them (and the last 1000 after that), and
                never longer than storage.eventRetention.
                """
        )

        @OptionGroup var options: ConfigOptions

        @Option(help: "Start at this sequence number.")
        var from: UInt64 = 0

        @Option(help: "Only event types matching this glob, e.g. \"address.*\".")
        var type: String?

        @Option(help: "Print at most this many events.")
        var limit: Int?

        @Flag(help: "Print JSON Lines: {\"seq\": N, \"event\": <the CloudEvents envelope>}.")
        var json = false

        func run() async throws {
            if let type, !EventTypeGlob.isValid(type) {
                throw CommandFailure.usage(
                    "--type: expected an event type or glob such as \"address.*\", got \"\(type)\""
                )
            }
            if let limit, limit < 0 { throw CommandFailure.usage("--limit: expected a number >= 0, got \(limit)") }
            let config = try options.load(needsSinks: false)
            let store = try StoreAccess.reader(config)
            defer { store.environment.close() }
            let filter = type.map { EventFilter([$0]) }
            let color = !json && isatty(STDOUT_FILENO) == 1
            var next = from
            var printed = 0
            let wanted = limit ?? .max
            pages: while printed < wanted {
                let start = next
                let page = try store.read { try $0.events(from: start, limit: 1000) }
                guard let last = page.last else { break }
                var text = ""
                for event in page where filter?.matches(event.type) ?? true {
                    text += json ? Self.jsonLine(event) : Self.humanLine(event, color: color)
                    text += "\n"
                    printed += 1
                    if printed == wanted { break }
                }
                if !text.isEmpty { FileHandle.standardOutput.write(Data(text.utf8)) }
                if last.seq == .max { break pages }
                next = last.seq + 1
            }
            if !json { Output.err(try Self.summary(store, printed: printed)) }
        }

        static func jsonLine(_ event: LoggedEvent) -> String {
            "{\"seq\":\(event.seq),\"event\":" + String(decoding: event.body, as: UTF8.self) + "}"
        }

        static func humanLine(_ event: LoggedEvent, color: Bool) -> String {
            String(event.seq).padding(toLength: 7, withPad: " ", startingAt: 0)
                + PrettyEventLine.render(event, color: color)
        }

        /// The log's range and the sinks' cursors, for humans.
        static func summary(_ store: Store, printed: Int) throws -> String {
            let (first, last, cursors) = try store.read { txn in
                (try txn.firstEventSeq(), try txn.lastEventSeq(), try txn.cursors())
            }
            let range = first.map { "seq \($0)…\(last)" } ?? "empty (last seq \(last))"
            let positions = cursors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(printed) event(s) shown; log \(range); cursors: "
                + (positions.isEmpty ? "none" : positions.joined(separator: ", "))
        }
    }
}
