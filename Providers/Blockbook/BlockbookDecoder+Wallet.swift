import WatcherCore
import WatcherHTTP

/// `/api/v2/xpub/<descriptor>` bodies.
extension BlockbookDecoder {
    /// A wallet page: the totals, the `XPUBAddress` tokens (other token types are skipped) and the transactions.
    /// The echoed `address` must be the descriptor asked for (Blockbook answers unknown paths with its status page,
    /// and a proxy may serve another wallet's cached body).
    public func walletSummary(_ node: ProviderHTTP.JSONNode, descriptor: String) throws -> WalletSummary {
        let echoed = try node.required("address").string()
        guard echoed == descriptor else {
            throw node.failure("asked for a wallet, got the body of another (\(echoed.prefix(16))…)")
        }
        var tokens: [WalletSummary.Token] = []
        for item in try node["tokens"]?.array() ?? [] {
            let type = try item["type"]?.string() ?? ""
            guard type == "XPUBAddress" else { continue }
            let token = WalletSummary.Token(
                address: try item.required("name").string(),
                path: try item.required("path").string(),
                transfers: try item["transfers"]?.int() ?? 0,
                balanceSat: try item["balance"]?.int64(),
                totalReceivedSat: try item["totalReceived"]?.int64(),
                totalSentSat: try item["totalSent"]?.int64()
            )
            guard token.branchAndIndex != nil else {
                throw item.failure("expected a path ending in /branch/index at \(item.place), got \(token.path)")
            }
            tokens.append(token)
        }
        var transactions: [ChainTransaction] = []
        var facts: [String: TxFacts] = [:]
        for item in try node["transactions"]?.array() ?? [] {
            let tx = try transaction(item)
            transactions.append(tx)
            facts[tx.txid] = try self.facts(of: item)
        }
        return WalletSummary(
            page: try node["page"]?.int() ?? 1,
            totalPages: try node["totalPages"]?.int() ?? 1,
            balanceSat: try node.required("balance").int64(),
            unconfirmedBalanceSat: try node["unconfirmedBalance"]?.int64(),
            txCount: try node.required("txs").int(),
            unconfirmedTxCount: try node["unconfirmedTxs"]?.int() ?? 0,
            tokens: tokens,
            transactions: transactions,
            facts: facts
        )
    }
}
