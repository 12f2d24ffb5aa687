import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Reads Esplora's answers: JSON objects for blocks, addresses and transactions, plain text for the tip height and
/// block hashes. Unknown keys are ignored (mempool.space adds `sigops`), integers are exact satoshis, and every
/// wrong shape is an `invalidResponse` naming its place.
struct EsploraDecoder: Sendable {
    let provider: String

    /// A height written as plain text (`840000`).
    func height(_ body: [UInt8]) throws -> Int {
        let text = Self.text(body)
        guard !text.isEmpty, text.count <= 10, text.utf8.allSatisfy({ (48...57).contains($0) }), let height = Int(text)
        else {
            throw invalid("expected a block height as plain text, got \(Self.quoted(body))")
        }
        return height
    }

    /// A block hash written as plain text, lower-cased.
    func hash(_ body: [UInt8]) throws -> String {
        guard let hash = Self.validHash(Self.text(body)) else {
            throw invalid("expected a block hash as plain text, got \(Self.quoted(body))")
        }
        return hash
    }

    /// `GET /block/:hash`.
    func block(_ node: ProviderHTTP.JSONNode) throws -> BlockHeader {
        let id = try node.required("id").string()
        guard let hash = Self.validHash(id) else { throw node.failure("\"id\" is not a block hash: \(id)") }
        let previous = try node["previousblockhash"]?.string().lowercased()
        let nonce = try node.required("nonce").int64()
        guard let nonce32 = UInt32(exactly: nonce) else { throw node.failure("\"nonce\" \(nonce) is out of range") }
        let txCount = try node.required("tx_count").int()
        let height = try node.required("height").int()
        guard txCount >= 1, height >= 0 else { throw node.failure("block \(hash): height \(height), \(txCount) txs") }
        return BlockHeader(
            hash: hash,
            height: height,
            time: try node.required("timestamp").date(),
            merkleRoot: try node.required("merkle_root").string(),
            nonce: nonce32,
            txCount: txCount,
            previousHash: previous
        )
    }

    /// `GET /address/:address`: the confirmed figures from `chain_stats`, the mempool's from `mempool_stats`.
    func summary(_ node: ProviderHTTP.JSONNode, address: String) throws -> AddressSummary {
        let answered = try node.required("address").string()
        guard Self.canonical(answered) == Self.canonical(address) else {
            throw node.failure("asked for address \(address), the answer is for \(answered)")
        }
        let chain = try Stats(node.required("chain_stats"))
        let mempool = try Stats(node.required("mempool_stats"))
        guard chain.funded >= chain.spent, chain.funded >= 0, chain.spent >= 0 else {
            throw node.failure("chain_stats spend \(chain.spent) of \(chain.funded) funded")
        }
        return AddressSummary(
            address: address,
            balanceSat: chain.funded - chain.spent,
            totalReceivedSat: chain.funded,
            totalSentSat: chain.spent,
            txCount: chain.txCount,
            unconfirmedBalanceSat: mempool.funded - mempool.spent,
            unconfirmedTxCount: mempool.txCount
        )
    }

    /// `GET /tx/:txid`, or one element of an address's or a block's transaction list.
    func transaction(_ node: ProviderHTTP.JSONNode) throws -> ChainTransaction {
        let text = try node.required("txid").string()
        guard let txid = Self.validHash(text) else { throw node.failure("\"txid\" is not a transaction id: \(text)") }
        let status = try node.required("status")
        let confirmed = try status.required("confirmed").bool()
        let inputs = try node.required("vin").array().map { input in
            // A coinbase input has `prevout: null`: no address, no value.
            guard let prevout = input["prevout"] else { return TxEndpoint(address: nil, valueSat: 0) }
            return try endpoint(prevout)
        }
        let outputs = try node.required("vout").array().map(endpoint)
        return ChainTransaction(
            txid: txid,
            blockHeight: confirmed ? try status.required("block_height").int() : nil,
            blockHash: confirmed ? try status.required("block_hash").string().lowercased() : nil,
            time: confirmed ? try status.required("block_time").date() : nil,
            feeSat: try node["fee"]?.int64(),
            inputs: inputs,
            outputs: outputs
        )
    }

    /// An address's history entry: the transaction's net effect on `address`, given in the API's own (canonical)
    /// form, as ``canonical(_:)`` gives it.
    func addressTx(_ transaction: ChainTransaction, address: String) -> AddressTx {
        AddressTx(
            txid: transaction.txid,
            blockHeight: transaction.blockHeight,
            blockHash: transaction.blockHash,
            time: transaction.time,
            deltaSat: transaction.delta(for: address)
        )
    }

    private func endpoint(_ node: ProviderHTTP.JSONNode) throws -> TxEndpoint {
        let value = try node.required("value").int64()
        guard value >= 0 else { throw node.failure("negative value \(value) at \(node.place)") }
        return TxEndpoint(address: try node["scriptpubkey_address"]?.string(), valueSat: value)
    }

    /// `funded_txo_sum`, `spent_txo_sum` and `tx_count` of a `chain_stats` or `mempool_stats` object.
    struct Stats {
        var funded: Int64
        var spent: Int64
        var txCount: Int

        init(_ node: ProviderHTTP.JSONNode) throws {
            funded = try node.required("funded_txo_sum").int64()
            spent = try node.required("spent_txo_sum").int64()
            txCount = try node.required("tx_count").int()
        }
    }

    func invalid(_ detail: String) -> ProviderError { .invalidResponse(provider: provider, detail: detail) }

    /// The body as text without surrounding whitespace (electrs writes none; proxies add a newline).
    static func text(_ body: [UInt8]) -> String {
        String(decoding: body.prefix(256), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func quoted(_ body: [UInt8]) -> String {
        let snippet = ProviderHTTP.snippet(body, limit: 60)
        return snippet.isEmpty ? "an empty body" : JSONValue.quoted(snippet)
    }

    /// A 64-hex block hash or txid, lower-cased, as WatcherCore's ``BlockID`` reads one; `nil` for anything else.
    static func validHash(_ text: String) -> String? {
        if case .hash(let hash)? = BlockID(text) { hash } else { nil }
    }

    /// The address as the API writes it: bech32 lower-cased (``BitcoinAddress``'s canonical form), base58 as it is.
    /// Text that is no address stays as it is, for the API to refuse.
    static func canonical(_ address: String) -> String {
        (try? BitcoinAddress(address))?.string ?? address
    }
}
