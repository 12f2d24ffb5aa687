import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Renders Blockbook REST v2 answers from a chain snapshot.
///
/// Errors are HTTP 400 `{"error":"…"}` as Blockbook sends them for every public error.
struct BlockbookRenderer: Sendable {
    let chain: ChainModel
    /// Current time (unix seconds) for the status page's mempool time.
    let now: Double
    /// Addresses answered as unused (`POST /control/hide`).
    var hidden: Set<String> = []

    static func error(_ message: String, status: Int = 400) -> SimReply {
        .json(.object([.init("error", .string(message))]), status: status)
    }

    /// `GET /api/` (and every unmatched `/api/...` path): the `SystemInfo` status JSON.
    func status() -> SimReply {
        let tip = chain.tip
        let blockbook: JSONValue = .object([
            .init("coin", .string("Bitcoin")),
            .init("network", .string("BTC")),
            .init("host", .string("simnet")),
            .init("version", .string("0.5.1")),
            .init("gitCommit", .string("5e1e5e7")),
            .init("buildTime", .string("2024-08-08T12:32:50+00:00")),
            .init("syncMode", .bool(true)),
            .init("initialSync", .bool(false)),
            .init("inSync", .bool(true)),
            .init("bestHeight", .integer(tip.height)),
            .init("lastBlockTime", .string(CalendarText.rfc3339Nano(Double(tip.time)))),
            .init("inSyncMempool", .bool(true)),
            .init("lastMempoolTime", .string(CalendarText.rfc3339Nano(now))),
            .init("mempoolSize", .integer(chain.mempool.count)),
            .init("decimals", .integer(8)),
            .init("dbSize", .integer(761_283_489_075 + Int64(tip.height - chain.parameters.startHeight) * 1_700_000)),
            .init("hasFiatRates", .bool(true)),
            .init("currentFiatRatesTime", .string(CalendarText.rfc3339Nano(now))),
            .init("historicalFiatRatesTime", .string(CalendarText.rfc3339Nano(Double(Int64(now) / 86_400 * 86_400)))),
            .init("about", .string("Blockbook - blockchain indexer for Trezor Suite (watcher simnet).")),
        ])
        let backend: JSONValue = .object([
            .init("chain", .string(chain.parameters.network.coreChainName)),
            .init("blocks", .integer(tip.height)),
            .init("headers", .integer(tip.height)),
            .init("bestBlockHash", .string(tip.hash)),
            .init("difficulty", .string(tip.difficulty)),
            .init(
                "sizeOnDisk",
                .integer(681_584_532_221 + Int64(tip.height - chain.parameters.startHeight) * 1_600_000)
            ),
            .init("version", .string("270100")),
            .init("subversion", .string("/Satoshi:27.1.0/")),
            .init("protocolVersion", .string("70016")),
        ])
        return .json(.object([.init("blockbook", blockbook), .init("backend", backend)]))
    }

    /// `GET /api/v2/block-index/<height>`; an empty or non-numeric height gives the tip's hash and a
    /// height above the tip gives `""`, both with 200 as Blockbook answers.
    func blockIndex(_ heightText: Substring) -> SimReply {
        let hash: String
        if let height = Int(heightText), height >= 0 {
            if height > chain.tip.height {
                hash = ""
            } else if let block = chain.block(height: height) {
                hash = block.hash
            } else {
                return Self.error("Block not found")
            }
        } else {
            hash = chain.tip.hash
        }
        return .json(.object([.init("blockHash", .string(hash))]))
    }

    /// `GET /api/v2/block/<height|hash>?page=N`: pages of 1000 light transactions.
    func block(_ id: Substring, page: Int?) -> SimReply {
        let found: SimBlock? =
            if let height = Int(id) { chain.block(height: height) } else if Hex.isHash(id) {
                chain.block(hash: String(id))
            } else { nil }
        guard let block = found else { return Self.error("Block not found") }
        let paging = Paging(count: block.txCount, page: page, itemsOnPage: 1000)
        var object = JSONObjectBuilder()
        paging.append(to: &object)
        object.add("hash", .string(block.hash))
        object.add("previousBlockHash", .string(block.previousBlockHash))
        if let next = chain.block(height: block.height + 1) { object.add("nextBlockHash", .string(next.hash)) }
        object.add("height", .integer(block.height))
        object.add("confirmations", .integer(chain.confirmations(atHeight: block.height)))
        object.add("size", .integer(block.size))
        object.add("time", .integer(block.time))
        object.add("version", .integer(block.version))
        object.add("merkleRoot", .string(block.merkleRoot))
        object.add("nonce", .string(String(block.nonce)))
        object.add("bits", .string(block.bits))
        object.add("difficulty", .string(block.difficulty))
        object.add("txCount", .integer(block.txCount))
        let json = BlockbookTxJSON(chain: chain)
        let txs = block.txids[paging.range].compactMap { chain.transaction($0) }.map(json.light)
        object.add("txs", .array(txs))
        return .json(object.value)
    }

    /// `GET /api/v2/tx/<txid>[?spending=true]`: with `spending`, spent outputs name their spender
    /// (`spentTxId`, `spentIndex`, and `spentHeight` once it is confirmed), as an extended-index instance does.
    func transaction(_ txid: Substring, spending: Bool = false) -> SimReply {
        guard !txid.isEmpty else { return Self.error("Missing txid") }
        guard !hidden.contains(String(txid)), let tx = chain.transaction(String(txid)) else {
            return Self.error("Transaction '\(txid)' not found")
        }
        return .json(BlockbookTxJSON(chain: chain).full(tx, spending: spending))
    }

    /// `GET /api/v2/tickers/?currency=`: rates keyed by lower-case code; unknown currencies get `-1`.
    static func tickers(prices: PriceModel, currency: Substring?) -> SimReply {
        var rates: [JSONValue.Member] = []
        if let currency, !currency.isEmpty {
            let value = PriceCurrency(code: currency).map { DecimalText.number(prices.price($0), places: 2) } ?? "-1"
            rates.append(.init(currency.lowercased(), .number(value)))
        } else {
            for code in PriceCurrency.allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
                rates.append(
                    .init(code.rawValue.lowercased(), .number(DecimalText.number(prices.price(code), places: 2)))
                )
            }
        }
        return .json(.object([.init("ts", .integer(Int64(prices.updatedAt))), .init("rates", .object(rates))]))
    }
}

/// Blockbook's paging arithmetic (`computePaging` in its `api/worker.go`): 1-based pages, pages past
/// the end clamped to the last page, `totalPages` at least 1.
struct Paging: Sendable {
    let page: Int
    /// Total pages; -1 when unknown (a height filter with a full page, as Blockbook answers).
    var totalPages: Int
    let itemsOnPage: Int
    let range: Range<Int>

    init(count: Int, page requested: Int?, itemsOnPage: Int) {
        let totalPages = max(0, (count - 1) / itemsOnPage)
        // Clamp first so that absurd page numbers cannot overflow the multiplication below.
        var page = max(0, min(requested ?? 1, 1_000_000_000) - 1)
        if page * itemsOnPage >= count { page = totalPages }
        let from = min(count, page * itemsOnPage)
        self.page = page + 1
        self.totalPages = totalPages + 1
        self.itemsOnPage = itemsOnPage
        self.range = from..<min(count, from + itemsOnPage)
    }

    func append(to object: inout JSONObjectBuilder) {
        object.add("page", .integer(page))
        object.add("totalPages", .integer(totalPages))
        object.add("itemsOnPage", .integer(itemsOnPage))
    }
}
