import Foundation
import HTTPTypes
import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Decodes Blockbook REST v2 bodies into the normalized models. Lenient where public instances differ
/// (omitted empty fields, old versions), strict about shape: a body without the fields that define it is an
/// ``ProviderError/invalidResponse(provider:detail:)``. Amounts are JSON strings of satoshi, read exactly.
public struct BlockbookDecoder: Sendable {
    typealias Node = ProviderHTTP.JSONNode

    /// The provider id errors name.
    public let provider: String

    /// Creates a decoder.
    public init(provider: String) { self.provider = provider }

    /// One page of an address's history with the paging Blockbook reported.
    public struct HistoryPage: Sendable {
        /// The page Blockbook returned (it clamps pages past the end).
        public var page: Int
        /// Total pages; -1 when Blockbook does not know.
        public var totalPages: Int
        /// The entries, newest first.
        public var transactions: [AddressTx]
    }

    /// The sync state from `/api/`: unhealthy during initial sync, when out of sync or when the backend reports
    /// an error.
    public func health(_ node: ProviderHTTP.JSONNode) throws -> ProviderHealth {
        let blockbook = try node.required("blockbook")
        let best = try blockbook.required("bestHeight").int()
        if try blockbook["initialSync"]?.bool() == true {
            return ProviderHealth(
                isHealthy: false,
                reason: "initial sync in progress (indexed to \(best))",
                bestHeight: best
            )
        }
        if let error = try node["backend"]?["error"]?.string(), !error.isEmpty {
            return ProviderHealth(isHealthy: false, reason: "backend error: \(error)", bestHeight: best)
        }
        if try blockbook["inSync"]?.bool() == false {
            let blocks = try node["backend"]?["blocks"]?.int()
            let behind = blocks.map { ", backend at \($0)" } ?? ""
            return ProviderHealth(
                isHealthy: false,
                reason: "index out of sync (indexed to \(best)\(behind))",
                bestHeight: best
            )
        }
        return ProviderHealth(isHealthy: true, bestHeight: best)
    }

    /// A block header from a `/api/v2/block/<id>` page, checked against the id asked for.
    public func header(_ node: ProviderHTTP.JSONNode, matching id: BlockID? = nil) throws -> BlockHeader {
        let hash = try self.hash(try node.required("hash").string(), at: node)
        let height = try node.required("height").int()
        switch id {
        case .height(let asked)? where asked != height:
            throw node.failure("asked for block \(asked), got height \(height)")
        case .hash(let asked)? where asked.lowercased() != hash:
            throw node.failure("asked for block \(asked), got \(hash)")
        default: break
        }
        let nonceText = try node["nonce"]?.string() ?? ""
        guard let nonce = nonceText.isEmpty ? 0 : UInt32(nonceText) else {
            throw node.failure("expected a 32-bit nonce at nonce, got \(JSONValue.quoted(nonceText))")
        }
        return BlockHeader(
            hash: hash,
            height: height,
            time: Date(timeIntervalSince1970: TimeInterval(try node.required("time").int64())),
            merkleRoot: try node["merkleRoot"]?.string() ?? "",
            nonce: nonce,
            txCount: try node.required("txCount").int(),
            previousHash: try node["previousBlockHash"]?.string()
        )
    }

    /// The transactions of a block page; empty when Blockbook clamped a page past the end.
    public func transactionPage(_ node: ProviderHTTP.JSONNode, requested: Int) throws -> BlockTxPage {
        let page = try node["page"]?.int() ?? 1
        let totalPages = try node["totalPages"]?.int() ?? 1
        let txs = try node["txs"]?.array() ?? []
        let transactions = page == requested ? try txs.map { try transaction($0) } : []
        return BlockTxPage(page: requested, totalPages: totalPages, transactions: transactions)
    }

    /// A transaction: the full form of `/api/v2/tx` and `details=txs`, or the light form of block pages.
    /// `blockHeight` -1 means unconfirmed. Coinbase inputs have no address and value 0.
    public func transaction(_ node: ProviderHTTP.JSONNode) throws -> ChainTransaction {
        let txid = try hash(try node.required("txid").string(), at: node)
        let height = try node["blockHeight"]?.int() ?? -1
        let inputs = try node.required("vin").array().map { vin in
            TxEndpoint(address: try address(of: vin), valueSat: try vin["value"]?.int64() ?? 0)
        }
        let outputs = try node.required("vout").array().map { vout in
            TxEndpoint(address: try address(of: vout), valueSat: try vout.required("value").int64())
        }
        return ChainTransaction(
            txid: txid,
            blockHeight: height >= 0 ? height : nil,
            blockHash: try node["blockHash"]?.string(),
            time: try node["blockTime"].map { Date(timeIntervalSince1970: TimeInterval(try $0.int64())) },
            feeSat: try node["fees"]?.int64(),
            inputs: inputs,
            outputs: outputs
        )
    }

    /// The zero-conf facts of a full transaction: `fees`, `vsize`, each vin's `sequence` (omitted when 0, as every
    /// empty field) and `txid`. Which parents are unconfirmed is not in the body: the engine asks (see
    /// ``TxFacts/unconfirmedInputs``).
    func facts(of node: ProviderHTTP.JSONNode) throws -> TxFacts {
        let vin = try node.required("vin").array()
        // A coinbase, or the light form (block pages, `txslight`) whose vin carry neither txid nor sequence.
        let light = vin.contains { $0["coinbase"] != nil || $0["txid"] == nil }
        let sequences = try vin.map { entry -> UInt32 in
            let value = try entry["sequence"]?.int64() ?? 0
            guard let sequence = UInt32(exactly: value) else {
                throw entry.failure("expected a 32-bit sequence at \(entry.place), got \(value)")
            }
            return sequence
        }
        let parents = light ? nil : try vin.map { try hash(try $0.required("txid").string(), at: $0) }
        // `vout` is omitted when 0, as every empty field.
        let outpoints = try parents.map { parents in
            try zip(parents, vin).map { TxOutpoint(txid: $0, vout: try $1["vout"]?.int() ?? 0) }
        }
        return TxFacts(
            feeSat: try node["fees"]?.int64(),
            vsize: try node["vsize"]?.int(),
            sequences: light ? nil : sequences,
            parents: parents,
            outpoints: outpoints
        )
    }

    /// Who spends outputs `outputs` of a transaction from `/api/v2/tx/<txid>?spending=true`: `spentTxId` names the
    /// spender (servers with the extended index); `spent: true` without it says only that one exists; neither, that
    /// none does. An index past the outputs is left out.
    public func spends(_ node: ProviderHTTP.JSONNode, outputs: [Int]) throws -> [Int: OutputSpend] {
        var byIndex: [Int: ProviderHTTP.JSONNode] = [:]
        for (position, vout) in try node.required("vout").array().enumerated() {
            byIndex[try vout["n"]?.int() ?? position] = vout
        }
        var result: [Int: OutputSpend] = [:]
        for index in outputs {
            guard let vout = byIndex[index] else { continue }
            if let spender = vout["spentTxId"] {
                result[index] = .spent(by: try hash(try spender.string(), at: spender))
            } else {
                result[index] = try vout["spent"]?.bool() == true ? .spent(by: nil) : .unspent
            }
        }
        return result
    }

    /// An address summary from `details=tokens` (or any level); a field the body lacks is `nil`.
    public func summary(_ node: ProviderHTTP.JSONNode, address: String) throws -> AddressSummary {
        try checkAddress(node, address: address)
        return AddressSummary(
            address: address,
            balanceSat: try node.required("balance").int64(),
            totalReceivedSat: try node["totalReceived"]?.int64(),
            totalSentSat: try node["totalSent"]?.int64(),
            txCount: try node.required("txs").int(),
            unconfirmedBalanceSat: try node["unconfirmedBalance"]?.int64(),
            unconfirmedTxCount: try node["unconfirmedTxs"]?.int()
        )
    }

    /// One page of `details=txs`, each entry with its net effect on `address`.
    public func history(_ node: ProviderHTTP.JSONNode, address: String) throws -> HistoryPage {
        try checkAddress(node, address: address)
        let key = Self.addressKey(address)
        let transactions = try (node["transactions"]?.array() ?? []).map { item -> AddressTx in
            let tx = try transaction(item)
            let received = tx.outputs.filter { $0.address.map(Self.addressKey) == key }.reduce(Int64(0)) {
                $0 + $1.valueSat
            }
            let sent = tx.inputs.filter { $0.address.map(Self.addressKey) == key }.reduce(Int64(0)) { $0 + $1.valueSat }
            return AddressTx(
                txid: tx.txid,
                blockHeight: tx.blockHeight,
                blockHash: tx.blockHash,
                time: tx.time,
                deltaSat: received - sent,
                facts: try facts(of: item)
            )
        }
        return HistoryPage(
            page: try node["page"]?.int() ?? 1,
            totalPages: try node["totalPages"]?.int() ?? 1,
            transactions: transactions
        )
    }

    /// Quotes from `/api/v2/tickers/`: rates keyed by lower-case code; `-1` (unavailable) and missing rates
    /// are left out.
    public func quotes(_ node: ProviderHTTP.JSONNode, currencies: [String]) throws -> [PriceQuote] {
        let time = Date(timeIntervalSince1970: TimeInterval(try node.required("ts").int64()))
        let rates = try node.required("rates")
        _ = try rates.members()
        return try currencies.compactMap { code in
            guard let rate = rates[code.lowercased()] else { return nil }
            let price = try rate.decimal()
            return price > 0 ? PriceQuote(currency: code, price: price, time: time, provider: provider) : nil
        }
    }

    /// The error for a non-200, non-429, non-5xx answer: Blockbook's 400 `{"error":"…"}` is "not found" for
    /// unknown blocks and transactions and a rejected request otherwise.
    /// A 400 without that JSON (a proxy's page, a cut body) is an invalid response; other statuses (403 from a
    /// CDN, 404 from a wrong base URL) mean the instance is not usable.
    public func clientError(_ response: HTTPResponseData, what: String) -> ProviderError {
        let message = (try? ProviderHTTP.json(response.body, provider: provider)["error"]?.string()) ?? nil
        let text = ProviderHTTP.snippet(response.body)
        guard response.status == 400 else {
            return .unavailable(
                provider: provider,
                status: response.status.code,
                detail: message ?? (text.isEmpty ? nil : text)
            )
        }
        guard let message else {
            return .invalidResponse(
                provider: provider,
                detail: "HTTP 400 without an error message: \(JSONValue.quoted(text))"
            )
        }
        if message.lowercased().contains("not found") { return .notFound(provider: provider, what: what) }
        return .badRequest(provider: provider, detail: message)
    }

    /// Checks a 64-hex hash and returns it lower-cased.
    func hash(_ text: String, at node: ProviderHTTP.JSONNode) throws -> String {
        guard text.count == 64, text.allSatisfy(\.isHexDigit) else {
            throw node.failure("expected a 64-hex hash at \(node.place), got \(JSONValue.quoted(text))")
        }
        return text.lowercased()
    }

    private func checkAddress(_ node: ProviderHTTP.JSONNode, address: String) throws {
        let echoed = try node.required("address").string()
        guard Self.addressKey(echoed) == Self.addressKey(address) else {
            throw node.failure("asked for address \(address), got \(echoed)")
        }
    }

    /// The first address of a vin/vout entry, `nil` when `isAddress` is false (coinbase, OP_RETURN).
    private func address(of entry: ProviderHTTP.JSONNode) throws -> String? {
        if try entry["isAddress"]?.bool() == false { return nil }
        return try entry["addresses"]?.array().first?.string()
    }

    /// Bech32 addresses compare case-insensitively; Base58 ones exactly.
    static func addressKey(_ address: String) -> String {
        let lower = address.lowercased()
        return ["bc1", "tb1", "bcrt1", "ltc1"].contains { lower.hasPrefix($0) } ? lower : address
    }
}
