import ArgumentParser
import Logging
import WatcherConfiguration
import WatcherCore
import WatcherHTTP

/// `watcher sinks`: commands about the configured sinks.
struct SinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sinks",
        abstract: "Check the configured sinks.",
        subcommands: [Test.self]
    )

    /// `watcher sinks test <id>`: connects to one sink's destination and prepares it, delivering nothing.
    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Connect to one sink's destination, prepare it (e.g. create its table) and report.",
            discussion: """
                Delivers no event and does not touch the store. A postgres sink connects, \
                creates its table and index when missing, and checks the columns. Exits 1 with \
                a one-line reason (the password never shown) when it fails, and 2 for an unknown \
                sink or a sink type without a test.
                """
        )

        @OptionGroup var options: ConfigOptions

        @Argument(help: "The id of a sink in the config.")
        var sink: String

        func run() async throws {
            let config = try options.load()
            guard let entry = config.sinks.first(where: { $0.id == sink }) else {
                let known = config.sinks.map(\.id).joined(separator: ", ")
                throw CommandFailure.usage("no sink \"\(sink)\" in \(options.config) (sinks: \(known))")
            }
            var logger = Logger(label: "watcher.sinks")
            logger[metadataKey: "sink"] = "\(entry.id)"
            let http = HTTPClientService(logger: logger)
            let context = PluginContext(
                http: HTTPTransport(client: http.client, userAgent: WatcherVersion.userAgent),
                logger: logger,
                dataDirectory: config.storage.path,
                time: .system
            )
            let result: Result<String, CommandFailure>
            do {
                let built = try entry.plugin.makeSink(context: context)
                if let testable = built as? any SinkSelfTest {
                    do {
                        result = .success(try await testable.selfTest())
                    } catch {
                        result = .failure(.runtime("sink \(entry.id): \(error)"))
                    }
                } else {
                    result = .failure(.usage("sink \(entry.id): the \(entry.type) sink has no connection test"))
                }
                await built.close()
            } catch {
                result = .failure(.runtime("cannot build sink \(entry.id): \(error)"))
            }
            await http.shutdown()
            switch result {
            case .success(let line): Output.out("\(entry.id): \(line)")
            case .failure(let failure): throw failure
            }
        }
    }
}
