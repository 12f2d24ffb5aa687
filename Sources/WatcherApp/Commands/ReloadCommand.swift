import ArgumentParser
import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// `watcher reload`: checks the config file, then sends SIGHUP to the `watcher run` that holds the lock of its data
/// directory, which loads the file again and applies it without a restart.
struct ReloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make the running daemon load its config file again (sends it SIGHUP).",
        discussion: """
            Checks the config as `watcher check` does (but for the sinks' secrets, which the daemon reads from its \
            own environment) and exits 2 with every problem, signalling nothing, when it is invalid. Otherwise finds the daemon through the lock of the config's data directory (storage.path) \
            and sends it SIGHUP; the daemon's log says what it applied. Exits 1 when no daemon runs there.
            """
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        // The sinks' ${NAME} secrets are the daemon's, in its own environment (systemd's EnvironmentFile), which
        // this shell need not have: the daemon checks them when it loads the file.
        let config = try options.load(needsSinks: false)
        let directory = config.storage.path
        guard let pid = DataDirectoryLock.holderPID(directory: directory) else {
            throw CommandFailure.runtime("no watcher is running on \(directory) (its lock is not held)")
        }
        guard kill(pid, SIGHUP) == 0 else {
            throw CommandFailure.runtime(
                "cannot signal the watcher on \(directory) (pid \(pid)): \(String(cString: strerror(errno)))"
            )
        }
        Output.out("sent SIGHUP to the watcher on \(directory) (pid \(pid)); its log says what it applied")
    }
}
