import ArgumentParser
import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// `watcher check`: validates the config, prints it resolved (secrets masked), then the jobs the engine will run
/// with what each asks of its provider (the same ``JobPlan`` the engine runs).
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the config and print it resolved, with secrets masked, and the jobs it will run.",
        discussion: "Exits 2 and lists every problem, each with its JSON path, when the config is invalid."
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let config = try options.load()
        var lines = ["\(options.config): ok"]
        for warning in config.warnings { lines.append("warning: \(warning)") }
        lines.append(config.resolved.serialized(pretty: true))
        let plan = JobPlan(config: config, settings: JobPlan.Settings(accounts: Self.accountCounts(config)))
        lines.append(BudgetPlan(plan: plan, config: config).text)
        Output.out(lines.joined(separator: "\n"))
    }

    /// CLI-followed accounts per chain, when a store exists (they cost requests too); none otherwise.
    static func accountCounts(_ config: WatcherConfig) -> [String: Int] {
        guard FileManager.default.fileExists(atPath: config.storage.path + "/data.mdb"),
            let store = try? Store(path: config.storage.path, options: .init(readOnly: true)),
            let accounts = try? store.read({ try $0.accounts() })
        else { return [:] }
        store.environment.close()
        return accounts.reduce(into: [:]) { $0[$1.chain, default: 0] += 1 }
    }
}
