import ArgumentParser
import Foundation
import WatcherCore

/// `watcher plugins`: the built-in plugins as a table, or the `Plugins.json` catalog.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the built-in provider and sink plugins with their options."
    )

    @Flag(name: .long, help: "Print the catalog as JSON (the contents of Plugins.json).")
    var json = false

    func run() async throws {
        let registry = PluginRegistry.builtIn
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
