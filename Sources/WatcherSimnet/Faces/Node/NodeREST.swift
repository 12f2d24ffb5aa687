import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Bitcoin Core's REST interface (`src/rest.cpp`, no authentication): chain info, block hash by height, headers,
/// blocks and transactions, as `.json`, `.bin` or `.hex`. Errors are plain text ending in CR LF, as Core's
/// `RESTERR` writes them.
struct NodeREST: Sendable {
    let chain: ChainModel
    let settings: NodeSettings
    let txindex: Bool

    private enum Format: String {
        case json, bin, hex
    }

    /// The statistics key of a REST path, e.g. `/rest/block` for `/rest/block/<hash>.bin`.
    static func endpoint(_ path: String) -> String {
        let segments = path.split(separator: "/")
        guard segments.count >= 2 else { return "/rest/" }
        let name = segments[1].split(separator: ".").first.map(String.init) ?? String(segments[1])
        return "/rest/\(name)"
    }

    func reply(httpMethod: String, path: String, query: [String: Substring]) -> SimReply {
        guard httpMethod == "GET" else { return Self.error("Only GET is supported", status: 405) }
        if settings.warmup {
            return Self.error("Service temporarily unavailable: \(settings.warmupMessage)", status: 503)
        }
        let rest = String(path.dropFirst("/rest/".count))
        let (resource, format) = Self.split(rest)
        guard let format else {
            return Self.error("output format not found (available: json, bin, hex)", status: 404)
        }
        let parts = resource.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "chaininfo" where parts.count == 1:
            guard format == .json else { return Self.error("output format not found (available: json)", status: 404) }
            return Self.json(
                CoreChainJSON(chain: chain).blockchainInfo(
                    syncing: settings.initialBlockDownload,
                    name: settings.chain
                )
            )
        case "blockhashbyheight" where parts.count == 2: return blockHash(height: parts[1], format: format)
        case "headers" where parts.count == 3: return headers(count: parts[1], hash: parts[2], format: format)
        case "headers" where parts.count == 2:
            return headers(count: query["count"].map(String.init) ?? "5", hash: parts[1], format: format)
        case "block" where parts.count == 2: return block(parts[1], format: format, details: true)
        case "block" where parts.count == 3 && parts[1] == "notxdetails":
            return block(parts[2], format: format, details: false)
        case "tx" where parts.count == 2: return transaction(parts[1], format: format)
        default: return SimReply(status: 404, contentType: "text/html; charset=ISO-8859-1", body: [])
        }
    }

    private func blockHash(height text: String, format: Format) -> SimReply {
        guard let height = Int(text), height >= 0 else { return Self.error("Invalid height: \(text)") }
        guard let block = chain.block(height: height) else {
            return Self.error("Block height out of range", status: 404)
        }
        switch format {
        case .json: return Self.json(.object([.init("blockhash", .string(block.hash))]))
        case .hex: return Self.text(block.hash + "\n")
        case .bin: return Self.binary((Hex.decode(block.hash) ?? []).reversed())
        }
    }

    private func headers(count text: String, hash: String, format: Format) -> SimReply {
        guard let count = Int(text), (1...2000).contains(count) else {
            return Self.error("Header count is invalid or out of acceptable range (1-2000): \(text)")
        }
        guard Hex.isHash(hash) else { return Self.error("Invalid hash: \(hash)") }
        var records: [ChainModel.BlockRecord] = []
        if let start = chain.block(hash: hash) {
            var height = start.height
            while records.count < count, let block = chain.block(height: height) {
                records.append(ChainModel.BlockRecord(block: block, transactions: [], onMainChain: true))
                height += 1
            }
        }
        let bytes = records.flatMap { $0.block.header.serialized() }
        switch format {
        case .json: return Self.json(.array(records.map { CoreChainJSON(chain: chain).header($0) }))
        case .hex: return Self.text(Hex.encode(bytes) + "\n")
        case .bin: return Self.binary(bytes)
        }
    }

    private func block(_ hash: String, format: Format, details: Bool) -> SimReply {
        guard Hex.isHash(hash) else { return Self.error("Invalid hash: \(hash)") }
        guard let record = chain.record(hash: hash) else { return Self.error("\(hash) not found", status: 404) }
        switch format {
        case .json: return Self.json(CoreChainJSON(chain: chain).block(record, verbosity: details ? 3 : 1))
        case .hex: return Self.text(Hex.encode(CoreChainJSON.rawBlock(record)) + "\n")
        case .bin: return Self.binary(CoreChainJSON.rawBlock(record))
        }
    }

    private func transaction(_ txid: String, format: Format) -> SimReply {
        guard Hex.isHash(txid) else { return Self.error("Invalid hash: \(txid)") }
        guard let tx = chain.transaction(txid) else { return Self.error("\(txid) not found", status: 404) }
        let location = chain.location(of: tx.txid)
        if location != nil && !txindex { return Self.error("\(txid) not found", status: 404) }
        switch format {
        case .json:
            let blockHash = location.flatMap { chain.block(height: $0.height)?.hash }
            return Self.json(.object(CoreTxJSON(chain: chain).members(tx, detail: .plain, blockHash: blockHash)))
        case .hex: return Self.text(tx.raw.hex() + "\n")
        case .bin: return Self.binary(tx.raw.serialized())
        }
    }

    /// `name.ext` into the name and a known format (`nil` format for an unknown or missing extension).
    private static func split(_ text: String) -> (String, Format?) {
        guard let dot = text.lastIndex(of: ".") else { return (text, nil) }
        return (String(text[..<dot]), Format(rawValue: String(text[text.index(after: dot)...])))
    }

    static func error(_ message: String, status: Int = 400) -> SimReply {
        SimReply(status: status, contentType: "text/plain", body: Array((message + "\r\n").utf8))
    }

    private static func json(_ value: JSONValue) -> SimReply {
        SimReply(status: 200, contentType: "application/json", body: Array((value.serialized() + "\n").utf8))
    }

    private static func text(_ text: String) -> SimReply {
        SimReply(status: 200, contentType: "text/plain", body: Array(text.utf8))
    }

    private static func binary(_ bytes: [UInt8]) -> SimReply {
        SimReply(status: 200, contentType: "application/octet-stream", body: bytes)
    }
}
