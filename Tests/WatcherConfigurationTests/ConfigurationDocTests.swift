import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// `docs/configuration.md` documents every plugin option of the compiled catalog, and nothing else.
struct ConfigurationDocTests {
    @Test func everyCatalogOptionIsDocumented() throws {
        let root = CatalogTests.repositoryRoot
        let doc = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let sections = doc.components(separatedBy: "\n### ").dropFirst()
        var documented: [String: Set<String>] = [:]
        for section in sections {
            guard let type = section.split(separator: "`").first else { continue }
            let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
            documented[String(type)] = Set(
                rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
            )
        }
        for entry in PluginRegistry.builtIn.sortedEntries {
            let type = entry.descriptor.type
            let options = Set(entry.optionSchema.map(\.key))
            #expect(documented[type] == options, "\(type): documented \(documented[type] ?? []) vs decoded \(options)")
        }
        #expect(Set(documented.keys) == Set(PluginRegistry.builtIn.entries.keys))
    }
}
