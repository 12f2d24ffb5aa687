import ArgumentParser
import WatcherCore

/// `watcher check`: validates the config, prints it resolved (secrets masked) and the request budget plan.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the config and print it resolved, with secrets masked.",
        discussion: "Exits 2 and lists every problem, each with its JSON path, when the config is invalid."
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let config = try options.load()
        var lines = ["\(options.config): ok"]
        for warning in config.warnings { lines.append("warning: \(warning)") }
        lines.append(config.resolved.serialized(pretty: true))
        let plan = BudgetPlan(config: config)
        lines.append(plan.text)
        Output.out(lines.joined(separator: "\n"))
    }
}
