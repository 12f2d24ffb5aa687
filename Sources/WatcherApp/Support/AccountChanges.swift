import Foundation
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// Following and unfollowing addresses: what `watcher accounts add/remove` and the web UI (`POST`/`DELETE
/// /api/accounts` of `watcher run --http`) share. Errors are ``AccountChangeError``s.
struct AccountChanges: Sendable {
    let config: WatcherConfig
    let chain: String
    /// The daemon's providers and scheduler (its rate limits apply); `nil`: a session of its own, as the CLI.
    var session: ProviderSession?

    /// Checks `text` offline: a valid address or `bitcoin:` URI of this chain's network.
    func parse(_ text: String) throws(AccountChangeError) -> LabeledAddress {
        let parsed: LabeledAddress
        do {
            parsed = try LabeledAddress(parsing: text)
        } catch {
            throw .invalid(error.description)
        }
        if let network = BitcoinAddress.Network(chain: chain), !parsed.address.isValid(on: network) {
            throw .invalid(
                "\(parsed.address.string) is a \(parsed.address.network) address; chain \"\(chain)\" is \(network)"
            )
        }
        return parsed
    }

    /// Asks the configured providers for the address; it must have transactions.
    func verify(_ address: String) async throws(AccountChangeError) -> AddressSummary {
        let chain = self.chain
        let summary: AddressSummary
        do {
            if let session {
                summary = try await session.ask(chain: chain) { try await $0.address(address) }
            } else {
                summary = try await ProviderSession.with(config) { session in
                    try await session.ask(chain: chain) { try await $0.address(address) }
                }
            }
        } catch let error as ProviderError {
            throw .providers(error.description, summary: error.summary)
        } catch {
            throw .providers("\(error)", summary: "the providers could not answer")
        }
        guard (summary.txCount ?? 0) + (summary.unconfirmedTxCount ?? 0) > 0 else {
            throw .noTransactions("\(address) has no transactions; nothing was stored")
        }
        return summary
    }

    /// Checks `text` offline, then through the providers, then stores it in `store()` (opened only then).
    func add(_ text: String, label: String?, store: () throws -> Store) async throws -> (Account, AddressSummary) {
        let parsed = try parse(text)
        if let label = label ?? parsed.label, let problem = LabelRule.problem(label) {
            throw AccountChangeError.invalid(problem)
        }
        let canonical = parsed.address.string
        let summary = try await verify(canonical)
        let account = Account(chain: chain, address: canonical, label: label ?? parsed.label, addedAt: Date())
        try await store().write(.accounts) { try $0.putAccount(account) }
        return (account, summary)
    }

    /// Stops following `text`, a stored account; config watches that still follow it keep its engine state.
    /// - Returns: what happened, in a sentence.
    func remove(_ text: String, store: Store) async throws -> String {
        let canonical = try parse(text).address.string
        let watches = FollowedAccount.configWatches(following: canonical, chain: chain, watches: config.watches)
        let keep = !watches.isEmpty
        let chain = self.chain
        let removed = try await store.write(.accounts) {
            try $0.removeAccount(chain: chain, address: canonical, keepingState: keep)
        }
        guard removed else {
            guard let watch = watches.first else {
                throw AccountChangeError.notFollowed("\(canonical) is not followed")
            }
            throw AccountChangeError.followedByConfig(
                "\(canonical) is followed by watch \"\(watch)\" in the config, not by `watcher accounts add`; "
                    + "nothing was changed (remove it from that watch's addresses instead)"
            )
        }
        guard let watch = watches.first else { return "stopped following \(canonical)" }
        return "removed account \(canonical); watch \"\(watch)\" in the config still follows it"
    }
}

extension AccountChangeError {
    /// The CLI's exit: an invalid address is a usage error (2), the rest runtime failures (1).
    var commandFailure: CommandFailure {
        if case .invalid(let text) = self { return .usage(text) }
        return .runtime(description)
    }
}
