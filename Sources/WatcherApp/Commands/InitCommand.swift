import ArgumentParser
import Foundation

/// `watcher init`: writes a starter config that passes `watcher check`.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter watcher.json (public Blockbook + Coinbase price, stdout sink)."
    )

    @Option(name: [.customShort("c"), .long], help: "Where to write the config.")
    var config: String = "./watcher.json"

    @Flag(name: .long, help: "Overwrite an existing file.")
    var force = false

    func run() async throws {
        if FileManager.default.fileExists(atPath: config), !force {
            throw CommandFailure.usage("\(config) already exists; pass --force to overwrite it")
        }
        guard FileManager.default.createFile(atPath: config, contents: Data(Self.starter.utf8)) else {
            throw CommandFailure.runtime("cannot write \(config)")
        }
        Output.out("wrote \(config); next: `watcher check --config \(config)`, then `watcher run --config \(config)`")
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
