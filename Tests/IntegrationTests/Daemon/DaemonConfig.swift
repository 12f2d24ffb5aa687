import Foundation
import WatcherApp
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// The `watcher.json` of a watcher run end to end against a simnet: Blockbook as `bb` with a `tip` blocks watch and a
/// `wallet` address watch, CoinDesk as `cd` with a price watch per currency (when there are any), and the events in the
/// file sink `<data>/events.jsonl` and any further sinks.
struct DaemonConfig {
    /// The data directory: the store, `watcher.json` and `events.jsonl` live there.
    var data: String
    /// The simnet's base URL, for both providers.
    var simnetURL: String
    /// Both providers' request timeout, as the config writes it.
    var timeout = "2s"
    /// The wallet watch's `addresses` (plain or `bitcoin:` URIs).
    var addresses: [String]
    /// The wallet watch's `confirmations` thresholds; `nil` keeps the default.
    var confirmations: [Int]?
    /// The currencies with a price watch each, named by the lowercased code.
    var currencies: [String] = []
    /// Sinks after the file sink, as JSON objects.
    var sinks: [String] = []
    /// Watches after the others, as JSON objects (e.g. a `wallet` watch).
    var watches: [String] = []

    /// The config's JSON text.
    var json: String {
        let list = addresses.map { "\"\($0)\"" }.joined(separator: ", ")
        let thresholds = confirmations.map { #", "confirmations": \#($0)"# } ?? ""
        var providers = [
            #"{"id": "bb", "type": "blockbook", "options": {"url": "\#(simnetURL)", "timeout": "\#(timeout)"}, "#
                + #""rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}"#
        ]
        var watches = [
            #"{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"}"#,
            #"{"id": "wallet", "type": "address", "providers": ["bb"], "every": "1s", "#
                + #""addresses": [\#(list)]\#(thresholds)}"#,
        ]
        watches += self.watches
        if !currencies.isEmpty {
            providers.append(
                #"{"id": "cd", "type": "coindesk", "options": {"url": "\#(simnetURL)", "timeout": "\#(timeout)"}}"#
            )
        }
        for currency in currencies {
            watches.append(
                #"{"id": "\#(currency.lowercased())", "type": "price", "providers": ["cd"], "every": "1s", "#
                    + #""currency": "\#(currency)"}"#
            )
        }
        let file = #"{"id": "file", "type": "file", "options": {"path": "\#(data)/events.jsonl"}}"#
        return """
            {"storage": {"path": "\(data)"},
             "providers": [\(providers.joined(separator: ",\n  "))],
             "watches": [\(watches.joined(separator: ",\n  "))],
             "sinks": [\(([file] + sinks).joined(separator: ",\n  "))]}
            """
    }

    /// The config as `watcher run` loads it, with the built-in plugins.
    func load() throws -> WatcherConfig {
        try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    /// Writes the config to `<data>/watcher.json` (the directory must exist) and returns that path.
    func write() throws -> String {
        let path = "\(data)/watcher.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A webhook sink with quick retries: its backoff starts at 50 ms and stops growing at `maxBackoff`.
    static func webhook(
        _ id: String,
        url: String,
        secret: String,
        maxBackoff: String,
        maxAttempts: Int? = nil
    ) -> String {
        let attempts = maxAttempts.map { #", "maxAttempts": \#($0)"# } ?? ""
        return #"{"id": "\#(id)", "type": "webhook", "options": {"url": "\#(url)", "secret": "\#(secret)", "#
            + #""initialBackoff": "50ms", "maxBackoff": "\#(maxBackoff)"\#(attempts)}}"#
    }
}
