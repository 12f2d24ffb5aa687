import Foundation
import HTTPTypes
import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Decodes blockchain.info-style bodies (`/latestblock`, `/rawaddr`, `/multiaddr`) and error answers.
/// Amounts are JSON integers of satoshi, read exactly; `block_height` is `null` for unconfirmed transactions.
public struct RawAddrDecoder: Sendable {
    typealias Node = ProviderHTTP.JSONNode

    /// The provider id errors name.
    public let provider: String

    /// Creates a decoder.
    public init(provider: String) { self.provider = provider }

    /// One `/rawaddr` page: the address's total transaction count (`n_tx`) and the page's entries.
    public struct History: Sendable {
        /// `n_tx`: confirmed and unconfirmed transactions in all.
        public var totalCount: Int
        /// The page, newest first, each with its net effect on the address (`result`).
        public var transactions: [AddressTx]
    }

    /// The tip from `/latestblock` (only `hash` and `height` are read; `block_index` and `txIndexes` are not
    /// reliable).
    public func tip(_ node: ProviderHTTP.JSONNode) throws -> BlockRef {
        let hash = try node.required("hash").string()
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
            throw node.failure("expected a 64-hex hash at hash, got \(JSONValue.quoted(hash))")
        }
        return BlockRef(height: try node.required("height").int(), hash: hash.lowercased())
    }

    /// The summary of a `/rawaddr` answer asked with `limit=pageSize`.
    public func rawaddrSummary(_ node: ProviderHTTP.JSONNode, address: String, pageSize: Int) throws -> AddressSummary {
        try checkEcho(node, address: address)
        let txs = try node.required("txs").array()
        return try summary(totals: node, address: address, txs: txs, pageSize: pageSize)
    }

    /// One page of `/rawaddr` history.
    public func rawaddrHistory(_ node: ProviderHTTP.JSONNode, address: String) throws -> History {
        try checkEcho(node, address: address)
        let key = Self.addressKey(address)
        let entries = try node.required("txs").array().map { tx -> AddressTx in
            let delta = try tx["result"]?.int64() ?? (try flows(of: tx, key: key).net)
            return AddressTx(
                txid: try hash(tx),
                blockHeight: try tx["block_height"]?.int(),
                time: try tx["time"].map { Date(timeIntervalSince1970: TimeInterval(try $0.int64())) },
                deltaSat: delta,
                facts: try facts(of: tx)
            )
        }
        return History(totalCount: try node.required("n_tx").int(), transactions: entries)
    }

    /// The zero-conf facts rawaddr tells: `fee`, the virtual size from `weight` (rounded up), and every input's
    /// `sequence` when all inputs are listed. Inputs name their parent by `tx_index`, not txid: which are
    /// unconfirmed stays `nil`.
    func facts(of tx: Node) throws -> TxFacts {
        let inputs = try tx["inputs"]?.array() ?? []
        let coinbase = inputs.contains { $0["prev_out"]?.isNull ?? true }
        var sequences: [UInt32]?
        if !coinbase, try tx["vin_sz"]?.int() == inputs.count {
            sequences = try inputs.map { input in
                let value = try input.required("sequence").int64()
                guard let sequence = UInt32(exactly: value) else {
                    throw input.failure("expected a 32-bit sequence at \(input.place), got \(value)")
                }
                return sequence
            }
        }
        let weight = try tx["weight"]?.int()
        return TxFacts(
            feeSat: try tx["fee"]?.int64(),
            vsize: weight.map { ($0 + 3) / 4 },
            sequences: sequences
        )
    }

    /// The summaries of a `/multiaddr` answer asked with `n=txCount`, matched to `addresses` by the `address`
    /// field (the answer's order is its own).
    public func multiaddrSummaries(
        _ node: ProviderHTTP.JSONNode,
        addresses: [String],
        txCount: Int
    ) throws -> [AddressSummary] {
        var byKey: [String: ProviderHTTP.JSONNode] = [:]
        for entry in try node.required("addresses").array() {
            byKey[Self.addressKey(try entry.required("address").string())] = entry
        }
        let txs = try node.required("txs").array()
        return try addresses.map { address in
            guard let entry = byKey[Self.addressKey(address)] else {
                throw node.failure("the answer has no entry for \(address)")
            }
            return try summary(totals: entry, address: address, txs: txs, pageSize: txCount)
        }
    }

    /// The typed error for an answer that is not a success, or `nil` for a success: plain-text
    /// `Rate limited` / `Maximum concurrent requests…` and any 429 are rate limits, `Invalid Bitcoin Address`
    /// (and the legacy base58 messages) a rejected request, other 5xx unavailability.
    public func error(_ response: HTTPResponseData, what: String, http: ProviderHTTP) -> ProviderError? {
        let text = ProviderHTTP.snippet(response.body)
        let lower = text.lowercased()
        if response.status == 429 || lower == "rate limited" || lower.hasPrefix("maximum concurrent requests") {
            return http.rateLimited(response)
        }
        let rejections = ["invalid bitcoin address", "input too short", "checksum does not validate"]
        if rejections.contains(where: lower.contains) { return .badRequest(provider: provider, detail: text) }
        if response.status.kind == .serverError {
            return .unavailable(provider: provider, status: response.status.code, detail: text.isEmpty ? nil : text)
        }
        if response.status == 404 { return .notFound(provider: provider, what: what) }
        guard response.status == 200 else {
            if let json = try? ProviderHTTP.json(response.body, provider: provider), json["error"] != nil {
                let message = (try? json["message"]?.string()) ?? nil
                return .badRequest(provider: provider, detail: message ?? text)
            }
            return .unavailable(provider: provider, status: response.status.code, detail: text.isEmpty ? nil : text)
        }
        return nil
    }

    /// Splits the mempool part out of the API's totals with the answer's own transactions. Exact when the
    /// answer shows every unconfirmed transaction (it holds a confirmed one, or fewer than asked); otherwise
    /// only `address` is known.
    func summary(totals: Node, address: String, txs: [Node], pageSize: Int) throws -> AddressSummary {
        let finalBalance = try totals.required("final_balance").int64()
        let count = try totals.required("n_tx").int()
        let received = try totals.required("total_received").int64()
        let sent = try totals.required("total_sent").int64()
        let key = Self.addressKey(address)
        var mempool = (received: Int64(0), sent: Int64(0), count: 0)
        var sawConfirmed = false
        for tx in txs {
            guard try tx["block_height"]?.int() == nil else {
                sawConfirmed = true
                continue
            }
            let flows = try flows(of: tx, key: key)
            if flows.touches {
                mempool.received += flows.received
                mempool.sent += flows.sent
                mempool.count += 1
            }
        }
        guard sawConfirmed || txs.count < pageSize else { return .unknown(address) }
        return AddressSummary(
            address: address,
            balanceSat: finalBalance - (mempool.received - mempool.sent),
            totalReceivedSat: received - mempool.received,
            totalSentSat: sent - mempool.sent,
            txCount: count - mempool.count,
            unconfirmedBalanceSat: mempool.received - mempool.sent,
            unconfirmedTxCount: mempool.count
        )
    }

    /// What `tx` moves into and out of the address with `key`, from its outputs (`out[].addr`) and the
    /// outputs its inputs spend (`inputs[].prev_out.addr`; `null` for coinbase inputs).
    func flows(of tx: Node, key: String) throws -> (received: Int64, sent: Int64, touches: Bool, net: Int64) {
        var received: Int64 = 0
        var sent: Int64 = 0
        var touches = false
        for output in try tx["out"]?.array() ?? []
        where try output["addr"].map({ Self.addressKey(try $0.string()) }) == key {
            received += try output.required("value").int64()
            touches = true
        }
        for input in try tx["inputs"]?.array() ?? [] {
            guard let previous = input["prev_out"],
                try previous["addr"].map({ Self.addressKey(try $0.string()) }) == key
            else { continue }
            sent += try previous.required("value").int64()
            touches = true
        }
        return (received, sent, touches, received - sent)
    }

    private func hash(_ tx: Node) throws -> String {
        let node = try tx.required("hash")
        let text = try node.string()
        guard text.count == 64, text.allSatisfy(\.isHexDigit) else {
            throw node.failure("expected a 64-hex txid at \(node.place), got \(JSONValue.quoted(text))")
        }
        return text.lowercased()
    }

    private func checkEcho(_ node: Node, address: String) throws {
        guard let echoed = try node["address"]?.string() else { _ = try node.required("n_tx"); return }
        guard Self.addressKey(echoed) == Self.addressKey(address) else {
            throw node.failure("asked for address \(address), got \(echoed)")
        }
    }

    /// Bech32 addresses compare case-insensitively; Base58 ones exactly.
    static func addressKey(_ address: String) -> String {
        let lower = address.lowercased()
        return ["bc1", "tb1", "bcrt1"].contains { lower.hasPrefix($0) } ? lower : address
    }
}
