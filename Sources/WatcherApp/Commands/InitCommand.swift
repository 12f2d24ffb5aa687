import ArgumentParser
import Foundation
import WatcherJSON

/// `watcher init`: writes a starter config that passes `watcher check`.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter watcher.json (public Blockbook + Coinbase price, stdout sink).",
        discussion: """
            With --bitcoind, the starter reads your own Bitcoin Core node instead: JSON-RPC on 127.0.0.1:8332,
            authenticated by the cookie file of the default data directory (~/.bitcoin/.cookie), with no
            third-party service at all.
            """
    )

    @Option(name: [.customShort("c"), .long], help: "Where to write the config.")
    var config: String = "./watcher.json"

    @Flag(name: .long, help: "Overwrite an existing file.")
    var force = false

    @Flag(name: .long, help: "Start from your own Bitcoin Core node (cookie auth) instead of public services.")
    var bitcoind = false

    func run() async throws {
        if FileManager.default.fileExists(atPath: config), !force {
            throw CommandFailure.usage("\(config) already exists; pass --force to overwrite it")
        }
        guard FileManager.default.createFile(atPath: config, contents: Data(text.utf8)) else {
            throw CommandFailure.runtime("cannot write \(config)")
        }
        Output.out("wrote \(config); next: `watcher check --config \(config)`, then `watcher run --config \(config)`")
    }

    /// The config written: the public starter, or the node's.
    var text: String {
        bitcoind
            ? Self.nodeStarter(
                cookieFile: (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.bitcoin/.cookie"
            ) : Self.starter
    }

    /// A starter on your own node: its cookie file from the default data directory, blocks every 10 s.
    static func nodeStarter(cookieFile: String) -> String {
        """
        {
          "storage": { "path": "./watcher-data" },
          "providers": [
            {
              "id": "node",
              "type": "bitcoind",
              "chain": "btc",
              "options": { "url": "http://127.0.0.1:8332", "cookieFile": \(JSONValue.quoted(cookieFile)), "rest": false }
            }
          ],
          "watches": [
            { "id": "tip", "type": "blocks", "providers": ["node"], "every": "10s" }
          ],
          "sinks": [
            { "id": "console", "type": "stdout", "options": { "format": "pretty" } }
          ]
        }

        """
    }

    static let starter = """
        {
          "storage": { "path": "./watcher-data" },
          "providers": [
            {
              "id": "blockbook",
              "type": "blockbook",
              "options": { "url": "https://btc1.trezor.io" },
              "rateLimit": { "requests": 20, "per": "1m", "burst": 20, "concurrency": 4 }
            },
            { "id": "coinbase", "type": "json-price", "options": { "preset": "coinbase" } }
          ],
          "watches": [
            { "id": "tip", "type": "blocks", "providers": ["blockbook"], "every": "1m" },
            { "id": "btc-usd", "type": "price", "providers": ["coinbase"], "currency": "USD", "every": "5m" }
          ],
          "sinks": [
            { "id": "console", "type": "stdout", "options": { "format": "pretty" } }
          ]
        }

        """
}
