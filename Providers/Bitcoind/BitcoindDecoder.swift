import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Bitcoin Core's answers → the models. Transactions are parsed from their raw bytes (`hex`) with
/// ``WatcherBitcoin``, so txids and output values are computed, not trusted; only the prevouts of inputs (verbosity
/// 2 and 3) and fees come from the JSON, as BTC amounts read from the number's text into satoshis.
struct BitcoindDecoder: Sendable {
    let provider: String
    /// The network output scripts are spelled as addresses on.
    let network: BitcoinAddress.Network

    /// A block header from `getblockheader <hash>` (or an element of REST `/rest/headers/…json`).
    func header(_ node: ProviderHTTP.JSONNode) throws -> BlockHeader {
        BlockHeader(
            hash: try hash(node.required("hash")),
            height: try node.required("height").int(),
            time: Date(timeIntervalSince1970: TimeInterval(try node.required("time").int64())),
            merkleRoot: try hash(node.required("merkleroot")),
            nonce: try nonce(node.required("nonce")),
            // `nTx` since Core 0.17; older nodes do not say (a `getblock` body lists its `tx`).
            txCount: try node["nTx"]?.int() ?? node["tx"]?.array().count,
            previousHash: try node["previousblockhash"].map(hash)
        )
    }

    /// A 64-hex hash, lower case.
    func hash(_ node: ProviderHTTP.JSONNode) throws -> String {
        let text = try node.string()
        guard Hex.isHash(text) else {
            throw node.failure("expected a 64-hex hash at \(node.place), got \(JSONValue.quoted(text))")
        }
        return text.lowercased()
    }

    private func nonce(_ node: ProviderHTTP.JSONNode) throws -> UInt32 {
        guard let value = UInt32(exactly: try node.int64()) else {
            throw node.failure("nonce out of range at \(node.place)")
        }
        return value
    }

    /// A transaction from a verbose object (`getrawtransaction <txid> 1|2`, or an element of `getblock <hash> 2|3`'s
    /// `tx`): its raw `hex` parsed, inputs valued from `vin[].prevout` when the node gave them.
    func transaction(_ node: ProviderHTTP.JSONNode, height: Int?, blockHash: String?) throws -> ChainTransaction {
        let hexNode = try node.required("hex")
        let raw: Transaction
        do {
            raw = try Transaction(hex: try hexNode.string())
        } catch {
            throw hexNode.failure("not a transaction at \(hexNode.place): \(error)")
        }
        let txid = raw.txid.displayHex
        if let stated = node["txid"], try stated.string().lowercased() != txid {
            throw stated.failure("the hex at \(hexNode.place) hashes to \(txid), not the txid \(try stated.string())")
        }
        var inputs: [TxEndpoint] = []
        var allValued = true
        let vin = try node["vin"]?.array() ?? []
        for (index, input) in raw.inputs.enumerated() {
            if raw.isCoinbase {
                inputs.append(TxEndpoint(address: nil, valueSat: 0))
                continue
            }
            guard index < vin.count, let prevout = vin[index]["prevout"] else {
                allValued = false
                inputs.append(TxEndpoint(address: nil, valueSat: 0))
                continue
            }
            _ = input
            let script = try prevout["scriptPubKey"]?["hex"].map { try bytes($0) } ?? []
            inputs.append(
                TxEndpoint(
                    address: BitcoinAddress(scriptPubKey: script, network: network)?.string,
                    valueSat: try Self.satoshis(prevout.required("value"))
                )
            )
        }
        let outputs = raw.outputs.map {
            TxEndpoint(
                address: BitcoinAddress(scriptPubKey: $0.scriptPubKey, network: network)?.string,
                valueSat: $0.value
            )
        }
        var fee: Int64?
        if raw.isCoinbase {
            fee = 0
        } else if let stated = node["fee"] {
            fee = try Self.satoshis(stated)
        } else if allValued {
            fee = inputs.reduce(0) { $0 + $1.valueSat } - outputs.reduce(0) { $0 + $1.valueSat }
        }
        let time = try (node["blocktime"] ?? node["time"]).map {
            Date(timeIntervalSince1970: TimeInterval(try $0.int64()))
        }
        let stated = try node["blockhash"].map(hash)
        return ChainTransaction(
            txid: txid,
            blockHeight: height,
            blockHash: blockHash ?? stated,
            time: time,
            feeSat: allValued || node["fee"] != nil ? fee : nil,
            inputs: inputs,
            outputs: outputs
        )
    }

    /// The transactions of a raw block (`getblock <hash> 0`, REST `block/<hash>.hex`), checked against the hash asked
    /// for. Inputs carry no prevout: their address is unknown and their value 0, and fees are `nil`.
    func rawBlock(_ hexText: String, hash expected: String, height: Int, at node: ProviderHTTP.JSONNode) throws
        -> (header: RawBlockHeader, transactions: [ChainTransaction])
    {
        let block: RawBlock
        do {
            block = try RawBlock(hex: hexText.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw node.failure("not a raw block: \(error)")
        }
        guard block.hash.displayHex == expected else {
            throw node.failure("asked for block \(expected), got a block hashing to \(block.hash.displayHex)")
        }
        let time = Date(timeIntervalSince1970: TimeInterval(block.header.time))
        let transactions = block.transactions.map { raw in
            ChainTransaction(
                txid: raw.txid.displayHex,
                blockHeight: height,
                blockHash: expected,
                time: time,
                feeSat: raw.isCoinbase ? 0 : nil,
                inputs: raw.inputs.map { _ in TxEndpoint(address: nil, valueSat: 0) },
                outputs: raw.outputs.map {
                    TxEndpoint(
                        address: BitcoinAddress(scriptPubKey: $0.scriptPubKey, network: network)?.string,
                        valueSat: $0.value
                    )
                }
            )
        }
        return (block.header, transactions)
    }

    private func bytes(_ node: ProviderHTTP.JSONNode) throws -> [UInt8] {
        guard let bytes = Hex.decode(try node.string()) else { throw node.failure("expected hex at \(node.place)") }
        return bytes
    }

    /// A BTC amount (`0.30000000`) in satoshis, read from the JSON number's text: at most 8 decimals (more only
    /// as trailing zeros), no exponent, never through `Double`.
    static func satoshis(_ node: ProviderHTTP.JSONNode) throws -> Int64 {
        guard case .number(let text) = node.value, let value = satoshis(text) else {
            throw node.failure(
                "expected a BTC amount with at most 8 decimals at \(node.place), got \(node.value.serialized())"
            )
        }
        return value
    }

    /// `text` (`-1.5`, `0.00010012`) in satoshis, or `nil` when it is not such an amount or overflows.
    static func satoshis(_ text: String) -> Int64? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        var fraction = parts.count == 2 ? parts[1] : ""
        if parts.count == 2, fraction.isEmpty { return nil }
        guard fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        while fraction.count > 8, fraction.last == "0" { fraction = fraction.dropLast() }
        guard fraction.count <= 8 else { return nil }
        let padded = fraction + String(repeating: "0", count: 8 - fraction.count)
        guard let coins = Int64(whole), let sats = Int64(padded) else { return nil }
        let (scaled, overflow) = coins.multipliedReportingOverflow(by: 100_000_000)
        guard !overflow else { return nil }
        let (sum, overflow2) = scaled.addingReportingOverflow(sats)
        guard !overflow2 else { return nil }
        return negative ? -sum : sum
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
