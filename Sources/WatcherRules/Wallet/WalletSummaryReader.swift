import Foundation
import WatcherBitcoin
import WatcherCore

/// Turns a provider's wallet summary (Blockbook's `/api/v2/xpub`) into what the other strategies produce: the
/// wallet's transactions matched by script (``WalletMatcher``, with the windows grown and the page matched again),
/// and one ``AddressReducer/Observation`` per wallet address touched, so the same reducer, ledger and event ids
/// follow. Pure: the script index lookup is passed in.
public enum WalletSummaryReader {
    /// One address to observe.
    public struct Observed: Sendable {
        /// Where it sits.
        public var ref: WalletAddressRef
        /// The address.
        public var address: String
        /// What the summary says of it.
        public var observation: AddressReducer.Observation
    }

    /// What one summary gave.
    public struct Outcome: Sendable {
        /// Addresses to observe.
        public var observed: [Observed]
        /// Scripts derived while matching, to reuse in the commit.
        public var derived: [WalletAddressRef: [UInt8]]
        /// Per branch, the highest index the provider derived and checked (its last used index plus the gap asked).
        public var covered: [WalletBranch: Int]
    }

    /// The refs of the used addresses a summary lists, each path re-derived: a token whose path does not give its
    /// address means the provider derives another script or key (a zpub read as an xpub), so nothing of the page
    /// can be trusted.
    public static func refs(_ summary: WalletSummary, wallet: FollowedWallet, provider: String) throws
        -> [String: WalletAddressRef]
    {
        var refs: [String: WalletAddressRef] = [:]
        for token in summary.tokens {
            guard let (number, index) = token.branchAndIndex, number <= 1,
                let branch = WalletBranch(number: UInt8(number)), wallet.branches.contains(branch),
                index <= WalletWindow.maxIndex
            else {
                throw ProviderError.invalidResponse(
                    provider: provider,
                    detail: "wallet \(wallet.id): token path \(token.path) is not a branch of the wallet"
                )
            }
            let derived = try wallet.address(branch, index)
            guard key(derived) == key(token.address) else {
                throw ProviderError.invalidResponse(
                    provider: provider,
                    detail: "wallet \(wallet.id): path \(token.path) derives \(derived), but the provider lists "
                        + "\(token.address) (does it read the key as another script type?)"
                )
            }
            refs[derived] = WalletAddressRef(wallet: wallet.id, branch: branch, index: index)
        }
        return refs
    }

    /// Reads `pages` (newest first, page 1 first).
    /// - Parameters:
    ///   - complete: every transaction newer than the known settled ones is on the pages.
    ///   - gap: the gap asked of the provider.
    ///   - unconfirmedKnown: wallet addresses with a stored mempool transaction, observed even when the page does
    ///     not mention them (a complete page without it means it left the mempool).
    public static func read(
        _ pages: [WalletSummary],
        wallet: FollowedWallet,
        state: WalletState,
        provider: String,
        complete: Bool,
        gap: Int,
        tipHeight: Int?,
        unconfirmedKnown: [String: WalletAddressRef],
        lookup: ([[UInt8]]) throws -> [Int: WalletAddressRef]
    ) throws -> Outcome {
        guard let first = pages.first else { return Outcome(observed: [], derived: [:], covered: [:]) }
        let refs = try self.refs(first, wallet: wallet, provider: provider)
        var byScript: [[UInt8]: WalletAddressRef] = [:]
        for ref in refs.values { byScript[try wallet.script(ref.branch, ref.index)] = ref }
        var seen: Set<String> = []
        let transactions = pages.flatMap(\.transactions).filter { seen.insert($0.txid).inserted }
        let facts = pages.reduce(into: [String: TxFacts]()) { all, page in all.merge(page.facts) { first, _ in first } }
        let txs = transactions.map { tx in
            WalletMatcher.Tx(
                txid: tx.txid,
                inputs: tx.inputs.map { .init(script: script(of: $0.address), valueSat: $0.valueSat) },
                outputs: tx.outputs.map { .init(script: script(of: $0.address), valueSat: $0.valueSat) }
            )
        }
        let outcome = try WalletMatcher.match(
            txs,
            wallets: [wallet.id: wallet.matching(state)],
            lookup: { scripts in
                var found = try lookup(scripts)
                for (position, script) in scripts.enumerated() where found[position] == nil {
                    if let ref = byScript[script] { found[position] = ref }
                }
                return found
            },
            derive: { try wallet.script($0.branch, $0.index) }
        )
        // Per address: its history (newest first, as the pages list it) and its mempool effect.
        let byTxid = Dictionary(transactions.map { ($0.txid, $0) }) { first, _ in first }
        var histories: [WalletAddressRef: [AddressTx]] = [:]
        var order: [WalletAddressRef] = []
        for match in outcome.matches {
            guard let tx = byTxid[match.txid] else { continue }
            if histories[match.ref] == nil { order.append(match.ref) }
            histories[match.ref, default: []].append(
                AddressTx(
                    txid: tx.txid,
                    blockHeight: tx.blockHeight,
                    blockHash: tx.blockHash,
                    time: tx.time,
                    deltaSat: match.deltaSat,
                    facts: facts[tx.txid]
                )
            )
        }
        var tokens: [WalletAddressRef: WalletSummary.Token] = [:]
        for token in first.tokens {
            if let ref = refs[key(token.address)] ?? refs[token.address] { tokens[ref] = token }
        }
        for ref in tokens.keys.sorted(by: { "\($0)" < "\($1)" }) where histories[ref] == nil { order.append(ref) }
        if complete {
            for ref in unconfirmedKnown.values.sorted(by: { "\($0)" < "\($1)" })
            where histories[ref] == nil && tokens[ref] == nil {
                order.append(ref)
            }
        }
        var observed: [Observed] = []
        for ref in order {
            let address = try wallet.address(ref.branch, ref.index)
            let history = histories[ref] ?? []
            let pending = history.filter { $0.blockHeight == nil }
            let token = tokens[ref]
            let summary = AddressSummary(
                address: address,
                balanceSat: token?.balanceSat ?? 0,
                totalReceivedSat: token?.totalReceivedSat ?? (token == nil ? 0 : nil),
                totalSentSat: token?.totalSentSat ?? (token == nil ? 0 : nil),
                txCount: token?.transfers ?? 0,
                unconfirmedBalanceSat: pending.reduce(0) { $0 + $1.deltaSat },
                unconfirmedTxCount: pending.count
            )
            let observation = AddressReducer.Observation(
                summary: summary,
                history: history,
                complete: complete,
                tipHeight: tipHeight
            )
            observed.append(Observed(ref: ref, address: address, observation: observation))
        }
        // The provider's window: its last used (confirmed) index on each branch, 0 when none, plus the gap.
        var covered: [WalletBranch: Int] = [:]
        for branch in wallet.branches {
            let last = refs.values.filter { $0.branch == branch }.map(\.index).max() ?? 0
            covered[branch] = min(WalletWindow.maxIndex, last + gap)
        }
        let derived = Dictionary(outcome.derived.map { ($0.ref, $0.script) }) { first, _ in first }
        return Outcome(observed: observed, derived: derived, covered: covered)
    }

    /// The scriptPubKey of an address the provider printed, `nil` for none or one that does not parse.
    static func script(of address: String?) -> [UInt8]? {
        guard let address, let parsed = try? BitcoinAddress(address) else { return nil }
        return parsed.scriptPubKey
    }

    /// Bech32 addresses compare case-insensitively; Base58 ones exactly.
    static func key(_ address: String) -> String {
        let lower = address.lowercased()
        return ["bc1", "tb1", "bcrt1"].contains { lower.hasPrefix($0) } ? lower : address
    }
}
