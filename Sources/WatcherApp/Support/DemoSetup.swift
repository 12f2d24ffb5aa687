import Foundation
import Logging
import ServiceLifecycle
import WatcherCore
import WatcherSimnet

/// Writes the demo's config.
enum DemoSetup {
    static func writeConfig(directory: String, baseURL: String, followed: [String], price: Decimal) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The file sink's path is taken as written (relative paths are relative to the working directory), so
        // give it the data directory's absolute path.
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        let above = (price * Decimal(101) / Decimal(100)).rounded(0)
        let below = (price * Decimal(99) / Decimal(100)).rounded(0)
        let text = """
            {
              "storage": { "path": "." },
              "providers": [
                { "id": "blockbook", "type": "blockbook", "options": { "url": "\(baseURL)" },
                  "rateLimit": { "requests": 240, "per": "1m", "burst": 40, "concurrency": 4 } },
                { "id": "rawaddr", "type": "rawaddr", "options": { "url": "\(baseURL)" },
                  "rateLimit": { "requests": 60, "per": "1m", "burst": 10, "concurrency": 2 } },
                { "id": "coindesk", "type": "coindesk", "options": { "url": "\(baseURL)" } }
              ],
              "watches": [
                { "id": "blocks", "type": "blocks", "providers": ["blockbook"], "every": "2s" },
                { "id": "wallet", "type": "address", "providers": ["blockbook", "rawaddr"], "every": "2s",
                  "addresses": ["bitcoin:\(followed[0])?label=Savings", "bitcoin:\(followed[1])?label=Cold%20storage"],
                  "confirmations": [1, 3, 6] },
                { "id": "btcusd", "type": "price", "providers": ["coindesk"], "currency": "USD", "every": "3s",
                  "emitUpdates": true, "above": [\(above)], "below": [\(below)] },
                { "id": "btcgbp", "type": "price", "providers": ["coindesk"], "currency": "GBP", "every": "10s" },
                { "id": "btceur", "type": "price", "providers": ["coindesk"], "currency": "EUR", "every": "10s" }
              ],
              "sinks": [
                { "id": "console", "type": "stdout", "options": { "format": "pretty" } },
                { "id": "file", "type": "file", "options": { "path": "\(absolute)/events.jsonl", "fsync": "1s" } }
              ]
            }

            """
        let path = URL(fileURLWithPath: directory).appendingPathComponent("watcher.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

extension Decimal {
    func rounded(_ scale: Int) -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, scale, .plain)
        return result
    }
}

/// Makes the demo lively: pays the followed addresses and mines a block every few seconds, and moves the price.
struct DemoDriver: Service {
    let simnet: Simnet
    let followed: [String]
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var step = 0
            // Let the watcher take its baseline first.
            try await Task.sleep(for: .seconds(3))
            while true {
                let target = followed[step % followed.count]
                let amount = Int64(50_000 + (step * 37_123) % 900_000)
                _ = try await simnet.pay(to: target, amountSat: amount)
                try await Task.sleep(for: .seconds(2))
                _ = try await simnet.mine(count: 1)
                var prices = await simnet.prices()
                for (currency, price) in prices {
                    prices[currency] = (price * Decimal(step % 2 == 0 ? 1012 : 990) / Decimal(1000)).rounded(2)
                }
                _ = await simnet.setPrices(prices)
                step += 1
                try await Task.sleep(for: .seconds(2))
            }
        }
    }
}
