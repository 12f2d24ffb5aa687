import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins

/// `Plugins.json` and the compiled registry must agree, in both directions.
struct CatalogTests {
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func plugins(_ catalog: JSONValue) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for plugin in catalog["plugins"]?.arrayValue ?? [] {
            if let type = plugin["type"]?.stringValue { result[type] = plugin }
        }
        return result
    }

    static func optionNames(_ plugin: JSONValue?) -> Set<String> {
        Set((plugin?["options"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
    }

    @Test func catalogMatchesRegistry() throws {
        let data = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("Plugins.json"))
        let documented = Self.plugins(try JSONValue.parse(Array(data)))
        let compiled = Self.plugins(PluginCatalog.json(.builtIn))

        let missingFromCatalog = Set(compiled.keys).subtracting(documented.keys)
        let notCompiled = Set(documented.keys).subtracting(compiled.keys)
        #expect(missingFromCatalog.isEmpty, "registered but not in Plugins.json: \(missingFromCatalog.sorted())")
        #expect(notCompiled.isEmpty, "in Plugins.json but not registered: \(notCompiled.sorted())")

        for type in Set(compiled.keys).intersection(documented.keys).sorted() {
            let decoded = Self.optionNames(compiled[type])
            let written = Self.optionNames(documented[type])
            #expect(
                written.subtracting(decoded).isEmpty,
                "\(type): documented but not decoded: \(written.subtracting(decoded).sorted())"
            )
            #expect(
                decoded.subtracting(written).isEmpty,
                "\(type): decoded but not documented: \(decoded.subtracting(written).sorted())"
            )
            #expect(
                documented[type] == compiled[type],
                "\(type): types, defaults or descriptions differ; run `watcher plugins --json > Plugins.json`"
            )
        }
    }

    @Test func everyProviderHasADefaultRateLimit() {
        for entry in PluginRegistry.builtIn.sortedEntries where entry.descriptor.role != .sink {
            #expect(entry.descriptor.defaultRateLimit != nil, "\(entry.descriptor.type)")
        }
        let blockbook = PluginRegistry.builtIn.entries["blockbook"]?.descriptor.defaultRateLimit
        #expect(blockbook == RateLimit(requests: 20, per: .seconds(60), burst: 20, concurrency: 4))
        #expect(PluginRegistry.builtIn.entries["rawaddr"]?.descriptor.defaultRateLimit?.requestsPerHour == 360)
        #expect(PluginRegistry.builtIn.entries["coindesk"]?.descriptor.defaultRateLimit?.requests == 30)
    }
}
