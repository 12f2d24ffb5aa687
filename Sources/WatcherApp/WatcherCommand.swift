import ArgumentParser
import Foundation
import Logging
import WatcherCore
import WatcherPlugins

/// The `watcher` command line.
public struct WatcherCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "watcher",
        abstract: "Watch Bitcoin blocks, addresses and prices through rate-limited providers; deliver events to sinks.",
        discussion: """
            Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad config.
            Start with `watcher init`, then `watcher check` and `watcher run`.
            """,
        version: WatcherVersion.current,
        subcommands: [
            RunCommand.self, ReloadCommand.self, CheckCommand.self, InitCommand.self, PluginsCommand.self,
            ProbeCommand.self, BlocksCommand.self, BlockCommand.self, AccountsCommand.self, WalletsCommand.self,
            RequestsCommand.self, PriceCommand.self, EventsCommand.self, DeadLettersCommand.self, SinksCommand.self,
            DemoCommand.self,
            SimnetCommand.self,
        ]
    )

    public init() {}

    /// The `watcher` CLI with plugins of your own beside the built-ins: every command (run, check, probe, plugins,
    /// the explorer commands) sees them. This is the whole `main.swift` of an out-of-tree binary:
    /// ```swift
    /// import WatcherApp
    /// await WatcherCommand.main(providers: [EsploraPlugin.self])
    /// ```
    /// See `docs/writing-a-provider.md`.
    public static func main(
        providers: [any ProviderPlugin.Type],
        sinks: [any SinkPlugin.Type] = [],
        arguments: [String]? = nil
    ) async -> Never {
        let registry = CommandPlugins.builtIn(plus: providers, sinks: sinks)
        let code = await CommandPlugins.$registry.withValue(registry) { await runCommand(arguments: arguments) }
        Foundation.exit(code)
    }

    /// Parses the arguments, runs the command and exits with the documented code.
    public static func runMain(arguments: [String]? = nil) async -> Never {
        Foundation.exit(await runCommand(arguments: arguments))
    }

    /// Parses the arguments and runs the command; returns the documented exit code.
    static func runCommand(arguments: [String]?) async -> Int32 {
        // main.swift did this first; a binary of plugins of its own (``main(providers:sinks:arguments:)``) gets it here.
        HangupGate.close()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            let level = ProcessInfo.processInfo.environment["WATCHER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            handler.logLevel = level ?? .info
            return handler
        }
        do {
            var command = try parseAsRoot(arguments)
            // Only the daemons take SIGHUP as a reload; for the other commands it is a hangup again.
            if !(command is RunCommand || command is DemoCommand) { HangupGate.open() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let failure as CommandFailure {
            Output.err("error: \(failure.message)")
            return failure.exitCode
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                Output.out(fullMessage(for: error))
                return 0
            }
            if let exit = error as? ExitCode {
                return exit.rawValue
            }
            Output.err(fullMessage(for: error))
            // ArgumentParser's usage errors (64) become the documented 2.
            return code == .validationFailure ? 2 : 1
        }
    }
}
