import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Reading the server's answers: histories, raw transactions and headers, each checked before use.
extension ElectrumProvider {
    /// One `get_history` entry.
    struct HistoryEntry: Sendable, Hashable {
        var txHash: String
        /// `> 0` confirmed at that height, `0` in the mempool, `-1` in the mempool with unconfirmed parents.
        var height: Int
        var fee: Int64?
    }

    /// The scriptPubKey of a followed address, refused when it does not decode.
    func scriptPubKey(_ address: String) throws -> [UInt8] {
        guard let script = BitcoinAddress.scriptPubKey(fromAddress: address) else {
            throw ProviderError.badRequest(provider: id, detail: "'\(address)' is not a Bitcoin address")
        }
        return script
    }

    func scripthash(_ address: String) throws -> String {
        ElectrumHash.scripthash(scriptPubKey: try scriptPubKey(address))
    }

    /// The address a script pays, on the provider's network; `nil` for scripts without one.
    func addressText(_ script: [UInt8]) -> String? {
        BitcoinAddress(scriptPubKey: script, network: network)?.string
    }

    /// `get_balance`: confirmed satoshi and the mempool's signed delta; the one read at the push connection's live
    /// status when there is one (``ElectrumStatusBook``).
    func balance(_ scripthash: String, address: String) async throws -> (confirmed: Int64, unconfirmed: Int64) {
        let known = statuses.current(scripthash)
        if let known {
            if known.status == nil { return (0, 0) }
            if let balance = known.balance { return balance }
        }
        let answer = try await link.call("blockchain.scripthash.get_balance", [.string(scripthash)])
        guard let confirmed = answer["confirmed"].flatMap(Self.int64),
            let unconfirmed = answer["unconfirmed"].flatMap(Self.int64)
        else { throw invalid("get_balance of \(address) answered \(Self.clip(answer))") }
        if let known { statuses.store(balance: (confirmed, unconfirmed), scripthash, at: known.status) }
        return (confirmed, unconfirmed)
    }

    /// `get_history`, in the server's order (confirmed by height, then the mempool); the one read at the push
    /// connection's live status when there is one (``ElectrumStatusBook``).
    func history(_ scripthash: String, address: String) async throws -> [HistoryEntry] {
        let known = statuses.current(scripthash)
        if let known {
            if known.status == nil { return [] }
            if let history = known.history { return history }
        }
        let history = try await readHistory(scripthash, address: address)
        if let known { statuses.store(history: history, scripthash, at: known.status) }
        return history
    }

    /// `get_history`, asked.
    private func readHistory(_ scripthash: String, address: String) async throws -> [HistoryEntry] {
        let result: JSONValue
        do {
            result = try await link.call("blockchain.scripthash.get_history", [.string(scripthash)])
        } catch ProviderError.badRequest(_, let detail) where detail.contains("\(ElectrumLink.historyTooLarge)") {
            throw Self.tooLarge(provider: id, address: address)
        }
        guard let items = result.arrayValue else {
            throw invalid("get_history of \(address) answered \(Self.clip(result)), not an array")
        }
        return try items.map { item in
            guard let txid = item["tx_hash"]?.stringValue, Hash256(displayHex: txid) != nil,
                let height = item["height"].flatMap(Self.int)
            else { throw invalid("get_history of \(address) has the entry \(Self.clip(item))") }
            return HistoryEntry(txHash: txid.lowercased(), height: height, fee: item["fee"].flatMap(Self.int64))
        }
    }

    /// A `get_history` answer's entries; `nil` when one does not read as an entry.
    static func historyEntries(_ result: JSONValue) -> [HistoryEntry]? {
        guard let items = result.arrayValue else { return nil }
        var entries: [HistoryEntry] = []
        for item in items {
            guard let txid = item["tx_hash"]?.stringValue, Hash256(displayHex: txid) != nil,
                let height = item["height"].flatMap(Self.int)
            else { return nil }
            entries.append(
                HistoryEntry(txHash: txid.lowercased(), height: height, fee: item["fee"].flatMap(Self.int64))
            )
        }
        return entries
    }

    /// The error for an address whose history the server refuses as longer than its limit.
    static func tooLarge(provider: String, address: String) -> ProviderError {
        .badRequest(
            provider: provider,
            detail: "\(address): history too large: the server refuses histories longer than its limit "
                + "(ElectrumX error \(ElectrumLink.historyTooLarge)); follow this address through another provider"
        )
    }

    /// A transaction by txid, raw from the server (or the cache) and decoded; its hash must be the txid.
    func transaction(raw txid: String) async throws -> Transaction {
        if let cached = cache.transaction(txid) { return cached }
        let result = try await link.call("blockchain.transaction.get", [.string(txid)])
        guard let hex = result.stringValue else {
            throw invalid("transaction.get \(txid) answered \(Self.clip(result)), not hex")
        }
        let tx: Transaction
        do {
            tx = try Transaction(hex: hex)
        } catch {
            throw invalid("transaction.get \(txid): \(error)")
        }
        guard tx.txid.displayHex == txid else {
            throw invalid("transaction.get \(txid) gave a transaction hashing to \(tx.txid.displayHex)")
        }
        cache.store(tx, txid: txid)
        return tx
    }

    /// The header at `height`: from the cache unless `fresh`, else `blockchain.block.header`.
    func header(at height: Int, fresh: Bool) async throws -> ElectrumCache.Header {
        if !fresh, let cached = cache.header(at: height) { return cached }
        let result = try await link.call("blockchain.block.header", [.number(String(height))])
        guard let hex = result.stringValue else {
            throw invalid("block.header \(height) answered \(Self.clip(result)), not hex")
        }
        return try header(hex: hex, height: height, what: "block.header \(height)")
    }

    /// Parses and hashes an 80-byte header, and remembers it.
    func header(hex: String, height: Int, what: String) throws -> ElectrumCache.Header {
        let parsed: RawBlockHeader
        do {
            parsed = try RawBlockHeader(hex: hex)
        } catch {
            throw invalid("\(what): \(error)")
        }
        let header = ElectrumCache.Header(height: height, hash: parsed.hash.displayHex, header: parsed)
        cache.store(header)
        return header
    }

    func invalid(_ detail: String) -> ProviderError {
        .invalidResponse(provider: id, detail: detail)
    }

    static func int(_ value: JSONValue) -> Int? {
        if case .number(let text) = value { return Int(text) }
        return nil
    }

    static func int64(_ value: JSONValue) -> Int64? {
        if case .number(let text) = value { return Int64(text) }
        return nil
    }

    /// A value for an error message, cut to 200 characters.
    static func clip(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
