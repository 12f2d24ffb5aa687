import ArgumentParser
import Foundation
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherRequests
import WatcherStorage

/// `watcher check`: validates the config, prints it resolved (secrets masked), then the jobs the engine will run
/// with what each asks of its provider (the same ``JobPlan`` the engine runs).
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the config and print it resolved, with secrets masked, and the jobs it will run.",
        discussion: """
            Exits 2 and lists every problem, each with its JSON path, when the config is invalid. Offline by default \
            (no request is made). --online then asks each chain provider for its health once: exits 2 when one \
            runs another chain than its config's (a bitcoind node's getblockchaininfo.chain), 1 when one cannot be \
            asked.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Flag(
        help: ArgumentHelp(
            "Also ask each chain provider for its health once: exit 2 when one is on another chain, 1 when one "
                + "cannot be asked."
        )
    )
    var online = false

    func run() async throws {
        let config = try options.load()
        var lines = ["\(options.config): ok"]
        for warning in config.warnings { lines.append("warning: \(warning)") }
        lines.append(config.resolved.serialized(pretty: true))
        let wallets = Self.walletStates(config)
        let plan = JobPlan(
            config: config,
            settings: JobPlan.Settings(
                accounts: Self.accountCounts(config),
                walletWindows: wallets.mapValues { state in
                    [state.receive, state.change].reduce(0) { $0 + ($1.derivedUpTo.map { $0 + 1 } ?? 0) }
                }
            )
        )
        lines.append(BudgetPlan(plan: plan, config: config).text)
        lines += Self.walletProgress(config, wallets)
        lines += Self.requestAdvice(config)
        guard online else {
            Output.out(lines.joined(separator: "\n"))
            return
        }
        let outcome = await OnlineCheck(config: config).run()
        lines += outcome.lines
        Output.out(lines.joined(separator: "\n"))
        if let failure = outcome.failure { throw failure }
    }

    /// The stored state of each configured wallet whose descriptor is still the configured one, when a store
    /// exists.
    static func walletStates(_ config: WatcherConfig) -> [String: WalletState] {
        let watches = config.watches.filter { $0.kind == .wallet }
        guard !watches.isEmpty, FileManager.default.fileExists(atPath: config.storage.path + "/data.mdb"),
            let store = try? Store(path: config.storage.path, options: .init(readOnly: true))
        else { return [:] }
        defer { store.environment.close() }
        var states: [String: WalletState] = [:]
        for watch in watches {
            guard let state = try? store.read({ try $0.walletState(chain: watch.chain, wallet: watch.id) }),
                state.descriptor == watch.wallet?.description
            else { continue }
            states[watch.id] = state
        }
        return states
    }

    /// How far each wallet's scan went: "no payments" is told apart from "not scanned yet".
    static func walletProgress(_ config: WatcherConfig, _ states: [String: WalletState]) -> [String] {
        let watches = config.watches.filter { $0.kind == .wallet }
        guard !watches.isEmpty else { return [] }
        var lines = ["wallets (how far the history was checked, from the store):"]
        for watch in watches {
            guard let state = states[watch.id] else {
                lines.append("  \(watch.id): not scanned yet")
                continue
            }
            let branches = watch.wallet?.change == nil ? [WalletBranch.receive] : WalletBranch.allCases
            let parts = branches.map { "\($0) \(state[$0].progress)" }
            lines.append("  \(watch.id): " + parts.joined(separator: "; "))
        }
        return lines
    }

    /// The gap advice of each wallet that takes payment requests (``RequestDesk/gapWarning``), when a store exists.
    static func requestAdvice(_ config: WatcherConfig) -> [String] {
        let watches = config.watches.filter { $0.kind == .wallet && $0.requests != nil }
        guard !watches.isEmpty, FileManager.default.fileExists(atPath: config.storage.path + "/data.mdb"),
            let store = try? Store(path: config.storage.path, options: .init(readOnly: true))
        else { return [] }
        defer { store.environment.close() }
        return watches.compactMap { watch in
            let limit = watch.requests?.gapWarn ?? 20
            let warning = try? store.read {
                try RequestDesk.gapWarning(wallet: watch.id, chain: watch.chain, limit: limit, txn: $0)
            }
            return (warning ?? nil).map { "warning: \($0)" }
        }
    }

    /// CLI-followed accounts per chain, when a store exists (they cost requests too); none otherwise.
    static func accountCounts(_ config: WatcherConfig) -> [String: Int] {
        guard FileManager.default.fileExists(atPath: config.storage.path + "/data.mdb"),
            let store = try? Store(path: config.storage.path, options: .init(readOnly: true)),
            let accounts = try? store.read({ try $0.accounts() })
        else { return [:] }
        store.environment.close()
        return accounts.reduce(into: [:]) { $0[$1.chain, default: 0] += 1 }
    }
}
