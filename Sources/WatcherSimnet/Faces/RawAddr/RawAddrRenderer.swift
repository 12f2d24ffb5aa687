import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Renders blockchain.info-style answers (`/rawaddr`, `/multiaddr`, `/latestblock`) from a chain
/// snapshot. Amounts are JSON integers of satoshi; errors are plain text, as the real API sends them.
struct RawAddrRenderer: Sendable {
    let chain: ChainModel

    /// The legacy backend's answer to an unparsable address: HTTP 500, plain text.
    static let invalidAddress = SimReply.text("Invalid Bitcoin Address", status: 500)

    /// `GET /rawaddr/<addr>?limit=&offset=` (limit default and max 50).
    func rawaddr(_ text: Substring, limit: Int?, offset: Int?) -> SimReply {
        guard let address = try? SimAddressParser.decode(String(text), network: chain.parameters.network) else {
            return Self.invalidAddress
        }
        let view = chain.view(of: address.string)
        let truth = view.truth
        let page = history(of: [address.string], limit: min(max(limit ?? 50, 0), 50), offset: max(offset ?? 0, 0))
        return .json(
            .object([
                .init("hash160", .string(Hex.encode(address.program))),
                .init("address", .string(String(text))),
                .init("n_tx", .integer(truth.confirmedTxCount + truth.unconfirmedTxCount)),
                .init("n_unredeemed", .integer(truth.unspentOutputCount)),
                .init("total_received", .integer(truth.totalReceivedSat + truth.unconfirmedReceivedSat)),
                .init("total_sent", .integer(truth.totalSentSat + truth.unconfirmedSentSat)),
                .init("final_balance", .integer(truth.finalBalanceSat)),
                .init("txs", .array(page)),
            ])
        )
    }

    /// `GET /multiaddr?active=a|b&n=&offset=` (n default and max 100).
    func multiaddr(active: Substring?, n: Int?, offset: Int?) -> SimReply {
        let texts = (active ?? "").split(separator: "|").map(String.init)
        guard !texts.isEmpty else { return Self.invalidAddress }
        var addresses: [SimAddress] = []
        for text in texts {
            guard let address = try? SimAddressParser.decode(text, network: chain.parameters.network) else {
                return Self.invalidAddress
            }
            if !addresses.contains(address) { addresses.append(address) }
        }
        let truths = addresses.map { chain.view(of: $0.string).truth }
        let page = history(
            of: addresses.map(\.string),
            limit: min(max(n ?? 100, 0), 100),
            offset: max(offset ?? 0, 0)
        )
        let entries: [JSONValue] = truths.sorted { $0.address < $1.address }.map { truth in
            .object([
                .init("address", .string(truth.address)),
                .init("final_balance", .integer(truth.finalBalanceSat)),
                .init("n_tx", .integer(truth.confirmedTxCount + truth.unconfirmedTxCount)),
                .init("total_received", .integer(truth.totalReceivedSat + truth.unconfirmedReceivedSat)),
                .init("total_sent", .integer(truth.totalSentSat + truth.unconfirmedSentSat)),
            ])
        }
        let wallet: JSONValue = .object([
            .init("final_balance", .integer(truths.reduce(0) { $0 + $1.finalBalanceSat })),
            .init("n_tx", .integer(page.count)),
            .init("n_tx_filtered", .integer(page.count)),
            .init(
                "total_received",
                .integer(truths.reduce(0) { $0 + $1.totalReceivedSat + $1.unconfirmedReceivedSat })
            ),
            .init("total_sent", .integer(truths.reduce(0) { $0 + $1.totalSentSat + $1.unconfirmedSentSat })),
        ])
        return .json(
            .object([
                .init("addresses", .array(entries)),
                .init("wallet", wallet),
                .init("txs", .array(page)),
                .init("info", info()),
                .init("recommend_include_fee", .bool(true)),
            ])
        )
    }

    /// `GET /latestblock`.
    func latestBlock() -> SimReply {
        let tip = chain.tip
        let indexes = tip.txids.compactMap { chain.transaction($0)?.txIndex }
        return .json(
            .object([
                .init("hash", .string(tip.hash)),
                .init("time", .integer(tip.time)),
                .init("block_index", .integer(tip.height)),
                .init("height", .integer(tip.height)),
                .init("txIndexes", .array(indexes.map { .integer($0) })),
            ])
        )
    }

    /// The txs touching `addresses`, newest first, each with its `result` and running `balance`
    /// for the set; multi-address pages list only the inputs/outputs touching the set.
    private func history(of addresses: [String], limit: Int, offset: Int) -> [JSONValue] {
        let set = Set(addresses)
        let views = addresses.map { chain.view(of: $0) }
        var mempoolOrder: [String: Int] = [:]
        for (position, txid) in chain.mempool.enumerated() { mempoolOrder[txid] = position }
        var seen: Set<String> = []
        var txids: [String] = []
        for txid in views.flatMap({ $0.confirmed + $0.unconfirmed }) where seen.insert(txid).inserted {
            txids.append(txid)
        }
        // Oldest first: confirmed by (height, position), then mempool by arrival.
        txids.sort { lhs, rhs in
            switch (chain.location(of: lhs), chain.location(of: rhs)) {
            case (let l?, let r?): l < r
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): (mempoolOrder[lhs] ?? 0) < (mempoolOrder[rhs] ?? 0)
            }
        }
        var running: Int64 = 0
        var rows: [(tx: SimTransaction, result: Int64, balance: Int64)] = []
        for txid in txids {
            guard let tx = chain.transaction(txid) else { continue }
            let delta = tx.delta(for: set)
            running += delta
            rows.append((tx, delta, running))
        }
        let json = RawAddrTxJSON(chain: chain)
        let filter = addresses.count > 1 ? set : nil
        return rows.reversed().dropFirst(offset).prefix(limit).map {
            json.transaction($0.tx, filter: filter, result: $0.result, balance: $0.balance)
        }
    }

    private func info() -> JSONValue {
        let tip = chain.tip
        return .object([
            .init("nconnected", .integer(0)),
            .init("conversion", .number("1.0e8")),
            .init(
                "symbol_local",
                .object([
                    .init("code", .string("USD")),
                    .init("symbol", .string("XXX")),
                    .init("name", .string("U.S. dollar")),
                    .init("conversion", .string("+inf")),
                    .init("symbolAppearsAfter", .bool(false)),
                    .init("local", .bool(true)),
                ])
            ),
            .init(
                "symbol_btc",
                .object([
                    .init("code", .string("BTC")),
                    .init("symbol", .string("BTC")),
                    .init("name", .string("Bitcoin")),
                    .init("conversion", .number("1.0e8")),
                    .init("symbolAppearsAfter", .bool(true)),
                    .init("local", .bool(false)),
                ])
            ),
            .init(
                "latest_block",
                .object([
                    .init("hash", .string(tip.hash)),
                    .init("height", .integer(tip.height)),
                    .init("time", .integer(tip.time)),
                    .init("block_index", .integer(tip.height)),
                ])
            ),
        ])
    }
}
