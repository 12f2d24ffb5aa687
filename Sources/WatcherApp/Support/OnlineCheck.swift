import Logging
import WatcherConfiguration
import WatcherCore
import WatcherHTTP

/// `watcher check --online`: each chain provider's `health()` asked once, directly (no store, no scheduler, one
/// attempt, no retry), so a node on another chain is found before `watcher run` starts on it.
struct OnlineCheck {
    /// What the providers answered.
    struct Outcome {
        /// One line per chain provider.
        var lines: [String] = []
        /// Providers on another chain than their config's: exit 2.
        var mismatches: [ChainMismatch] = []
        /// Providers that could not be asked (down, refused, timed out): exit 1 unless a mismatch says 2.
        var unreachable: [String] = []

        /// The failure to exit with, `nil` when every provider answered on its chain.
        var failure: CommandFailure? {
            if !mismatches.isEmpty {
                return .usage(mismatches.map(\.description).joined(separator: "\n"))
            }
            if !unreachable.isEmpty {
                return .runtime("could not ask provider(s) \(unreachable.joined(separator: ", ")) (see above)")
            }
            return nil
        }
    }

    let config: WatcherConfig

    /// Asks every chain provider of the config for its health, one at a time.
    func run() async -> Outcome {
        var outcome = Outcome()
        let providers = config.providers.filter(\.servesChain)
        guard !providers.isEmpty else {
            outcome.lines.append("online: no chain providers to ask")
            return outcome
        }
        outcome.lines.append("online (each chain provider's health, asked once):")
        let logger = Logger(label: "watcher.check")
        let http = HTTPClientService(logger: logger)
        let transport = HTTPTransport(client: http.client, userAgent: WatcherVersion.userAgent)
        for entry in providers {
            let context = PluginContext(
                http: transport,
                logger: logger,
                dataDirectory: config.storage.path,
                time: .system
            )
            do {
                guard let provider = try entry.plugin.makeChainProvider(context: context) else { continue }
                let health = try await provider.health()
                let height = health.bestHeight.map { ", best height \($0)" } ?? ""
                outcome.lines.append(
                    health.isHealthy
                        ? "  \(entry.id): healthy on chain \(entry.chain)\(height)"
                        : "  \(entry.id): answers, but unhealthy: \(health.reason ?? "no reason given")\(height)"
                )
            } catch let mismatch as ChainMismatch {
                outcome.mismatches.append(mismatch)
                outcome.lines.append("  \(entry.id): WRONG CHAIN: \(mismatch)")
            } catch {
                outcome.unreachable.append(entry.id)
                let text = (error as? ProviderError)?.description ?? "provider \(entry.id): \(error)"
                outcome.lines.append("  \(entry.id): cannot be asked: \(text)")
            }
        }
        await http.shutdown()
        return outcome
    }
}
