import ArgumentParser
import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherJSON

/// `watcher plugins`: the plugins of this binary (the built-ins and any registered through
/// ``WatcherCommand/main(providers:sinks:arguments:)``) as a table, or as the `Plugins.json` catalog.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the provider and sink plugins of this binary with their options."
    )

    @Flag(name: .long, help: "Print the catalog as JSON (for the built-ins, the contents of Plugins.json).")
    var json = false

    func run() async throws {
        let registry = CommandPlugins.registry
        if json {
            Output.out(PluginCatalog.json(registry).serialized(pretty: true))
            return
        }
        var lines: [String] = []
        let header = ["TYPE", "ROLE", "DEFAULT LIMIT", "SUMMARY"]
        var rows: [[String]] = [header]
        for entry in registry.sortedEntries {
            let d = entry.descriptor
            rows.append([d.type, d.role.rawValue, d.defaultRateLimit.map(Self.limitText) ?? "-", d.summary])
        }
        lines += TextTable.render(rows)
        lines.append("")
        for entry in registry.sortedEntries {
            let options = entry.optionSchema.map { option in
                option.key + (option.required ? "*" : "")
            }
            lines.append("\(entry.descriptor.type) options: \(options.joined(separator: ", "))")
        }
        lines.append("(* = required; `watcher plugins --json` gives types, defaults and descriptions)")
        Output.out(lines.joined(separator: "\n"))
    }

    static func limitText(_ limit: RateLimit) -> String {
        "\(limit.requests)/\(limit.per.configText) burst \(limit.burst)"
    }
}
