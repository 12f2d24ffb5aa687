import ArgumentParser
import Foundation
import Logging
import WatcherConfiguration
import WatcherCore
import WatcherDelivery
import WatcherHTTP
import WatcherJSON
import WatcherSinks
import WatcherStorage

/// `watcher deadletters`: the events sinks gave up on.
struct DeadLettersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deadletters",
        abstract: "Show or retry the events that sinks gave up on.",
        subcommands: [List.self, Replay.self]
    )

    /// `watcher deadletters list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List dead letters, and sinks disabled by HTTP 410.",
            discussion: "Opens the store read-only, so it works while `watcher run` runs."
        )

        @OptionGroup var options: ConfigOptions

        @Option(help: "Only this sink's dead letters.")
        var sink: String?

        @Flag(help: "Print JSON Lines, one dead letter each, with its envelope.")
        var json = false

        func run() async throws {
            let config = try options.load(needsSinks: false)
            let store = try StoreAccess.reader(config)
            defer { store.environment.close() }
            let filter = sink
            let (letters, disabled) = try store.read { txn in
                (
                    try txn.deadLetters(sink: filter),
                    try txn.disabledSinks().filter { filter == nil || $0.sink == filter }
                )
            }
            if json {
                let lines = letters.map(Self.jsonLine)
                if !lines.isEmpty { Output.out(lines.joined(separator: "\n")) }
                return
            }
            var rows = [["SINK", "SEQ", "EVENT", "ATTEMPTS", "DEAD SINCE", "LAST ERROR"]]
            for letter in letters {
                rows.append([
                    letter.sink, "\(letter.seq)", letter.eventID, "\(letter.attempts)",
                    Self.timestamp(letter.deadAt), letter.lastError,
                ])
            }
            var lines = letters.isEmpty ? ["no dead letters"] : Self.table(rows)
            for record in disabled {
                lines.append(
                    "sink \(record.sink) is DISABLED since \(Self.timestamp(record.disabledAt)): \(record.reason); "
                        + "`watcher deadletters replay --sink \(record.sink)` re-enables it once delivery succeeds"
                )
            }
            Output.out(lines.joined(separator: "\n"))
        }

        static func jsonLine(_ letter: DeadLetter) -> String {
            let envelope = (try? JSONValue.parse(letter.body)) ?? .string(String(decoding: letter.body, as: UTF8.self))
            let object = JSONValue.object([
                .init("sink", .string(letter.sink)),
                .init("seq", .number("\(letter.seq)")),
                .init("id", .string(letter.eventID)),
                .init("attempts", .number("\(letter.attempts)")),
                .init("deadAt", .string(timestamp(letter.deadAt))),
                .init("lastError", .string(letter.lastError)),
                .init("event", envelope),
            ])
            return object.serialized()
        }

        static func timestamp(_ date: Date) -> String {
            date.formatted(.iso8601)
        }

        static func table(_ rows: [[String]]) -> [String] {
            TextTable.render(rows)
        }
    }

    /// `watcher deadletters replay`.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Retry dead letters through the sinks as configured now.",
            discussion: """
                Each sink's dead letters are delivered once each, oldest first, stopping at the sink's first
                failure. Delivered letters are removed. When all of a sink's letters go through, a sink disabled by
                HTTP 410 is enabled again; a running `watcher run` resumes it within a second. Exits 1 when a
                letter still fails.
                """
        )

        @OptionGroup var options: ConfigOptions

        @Option(help: "Only this sink.")
        var sink: String?

        func run() async throws {
            let config = try options.load()
            if let sink, !config.sinks.contains(where: { $0.id == sink }) {
                let known = config.sinks.map(\.id).joined(separator: ", ")
                throw CommandFailure.usage("no sink \"\(sink)\" in \(options.config); sinks: \(known)")
            }
            guard FileManager.default.fileExists(atPath: config.storage.path + "/data.mdb") else {
                throw CommandFailure.runtime(StorageError.missingStore(path: config.storage.path).description)
            }
            let logger = Logger(label: "watcher")
            let store = try StoreAccess.writer(config, logger: logger)
            let http = HTTPClientService(logger: logger)
            let summaries: [DeadLetterReplayer.Summary]
            do {
                summaries = try await replay(config, store: store, http: http, logger: logger)
            } catch {
                await http.shutdown()
                await store.close()
                throw error
            }
            await http.shutdown()
            await store.close()
            var lines: [String] = []
            for summary in summaries {
                var line = "\(summary.sink): replayed \(summary.replayed), \(summary.remaining) left"
                if summary.reenabled { line += "; re-enabled" }
                if let failure = summary.failure { line += "; stopped at a failure: \(failure)" }
                if let disabled = summary.disabled { line += "; disabled: \(disabled)" }
                lines.append(line)
            }
            Output.out(lines.isEmpty ? "no dead letters" : lines.joined(separator: "\n"))
            if summaries.contains(where: { $0.failure != nil }) {
                throw CommandFailure.runtime("some dead letters could not be delivered")
            }
        }

        private func replay(
            _ config: WatcherConfig,
            store: Store,
            http: HTTPClientService,
            logger: Logger
        ) async throws -> [DeadLetterReplayer.Summary] {
            let context = PluginContext(
                http: HTTPTransport(client: http.client, userAgent: WatcherVersion.userAgent),
                logger: logger,
                dataDirectory: config.storage.path,
                time: .system
            )
            let (pending, disabled) = try store.read { txn in
                (Set(try txn.deadLetters().map(\.sink)), Set(try txn.disabledSinks().map(\.sink)))
            }
            let replayer = DeadLetterReplayer(store: store, logger: logger, time: .system)
            var summaries: [DeadLetterReplayer.Summary] = []
            for sinkConfig in config.sinks where sink.map({ $0 == sinkConfig.id }) ?? true {
                guard pending.contains(sinkConfig.id) || disabled.contains(sinkConfig.id) else { continue }
                let built: any Sink
                do {
                    built = try sinkConfig.plugin.makeSink(context: context)
                } catch {
                    throw CommandFailure.runtime("cannot build sink \(sinkConfig.id): \(error)")
                }
                let summary = try await replayer.replay(built)
                await built.close()
                summaries.append(summary)
            }
            return summaries
        }
    }
}
