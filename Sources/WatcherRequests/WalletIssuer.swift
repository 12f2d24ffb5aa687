import Foundation
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherRules
import WatcherStorage

/// Hands out a wallet's next receive address (`watcher wallets next`, `POST /api/wallets/{id}/next`): the lowest
/// receive index above both the last used and the last issued one, recorded as issued so the window covers it
/// (and `gap` more) before the address is shown. It writes through the store, so it works while `watcher run`
/// runs: the daemon reads the window and the script index from the store at each round and each block.
package enum WalletIssuer {
    /// An address handed out.
    package struct Issued: Sendable, Hashable {
        /// The wallet.
        package var wallet: String
        /// The branch (always receive).
        package var branch: WalletBranch
        /// The index.
        package var index: Int
        /// The address.
        package var address: String
        /// A `bitcoin:` URI for it, with the label when one was given.
        package var uri: String
        /// The label given.
        package var label: String?

        /// `{"wallet", "branch", "index", "address", "uri"}` (and `label` when given).
        package var json: JSONValue {
            var members: [JSONValue.Member] = [
                .init("wallet", .string(wallet)),
                .init("branch", .string(branch.rawValue)),
                .init("index", .integer(index)),
                .init("address", .string(address)),
                .init("uri", .string(uri)),
            ]
            if let label { members.append(.init("label", .string(label))) }
            return .object(members)
        }
    }

    /// Records and returns the next receive address of `wallet`.
    package static func next(
        _ wallet: WalletBook.Wallet,
        chain: String,
        label: String?,
        store: Store,
        now: Date = Date()
    ) async throws -> Issued {
        let ref = try await store.write(.wallets) { txn in
            try issue(wallet, chain: chain, label: label, txn: txn, now: now)
        }
        let address = try wallet.address(.receive, ref.index)
        return Issued(
            wallet: wallet.id,
            branch: .receive,
            index: ref.index,
            address: address,
            uri: uri(address, label: label),
            label: label
        )
    }

    /// Records the next receive address of `wallet` as issued in `txn`, growing its window to cover it.
    package static func issue(
        _ wallet: WalletBook.Wallet,
        chain: String,
        label: String?,
        txn: StoreTransaction<WriteTransaction>,
        now: Date
    ) throws -> WalletAddressRef {
        var state = try txn.walletState(chain: chain, wallet: wallet.id) ?? wallet.emptyState(chain: chain)
        if state.descriptor != wallet.normalized {
            try WalletCommit.forget(state, txn: txn)
            state = wallet.emptyState(chain: chain)
        }
        let index = WalletWindow.nextToIssue(state.receive)
        state.receive = WalletWindow.issued(state.receive, index: index)
        try WalletCommit.grow(&state, wallet: wallet, txn: txn)
        state.updatedAt = now
        try txn.putWalletState(state)
        let address = try wallet.address(.receive, index)
        try txn.putIssuedAddress(
            chain: chain,
            IssuedAddress(wallet: wallet.id, index: index, address: address, label: label, issuedAt: now)
        )
        return WalletAddressRef(wallet: wallet.id, branch: .receive, index: index)
    }

    /// `bitcoin:<address>`, with `?label=` percent-encoded when given (BIP21).
    package static func uri(_ address: String, label: String?) -> String {
        guard let label, !label.isEmpty else { return "bitcoin:\(address)" }
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        )
        return "bitcoin:\(address)?label=\(label.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }
}
