/// The named databases of a watcher store. See `docs/storage.md` for keys and values.
struct Tables: Sendable {
    static let names = [
        "meta", "tips", "headers", "accounts", "addresses", "prices", "events", "event_ids", "cursors",
        "deadletters", "watchstate",
    ]
    /// Tables a store written before wallets lacks: a read-only open of such a store reads them as empty (the next
    /// read-write open creates them).
    static let optionalNames = [
        "wallets", "walletscripts", "walletissued", "requests", "requestorders", "sourceprices",
    ]

    let meta: Database
    let tips: Database
    let headers: Database
    let accounts: Database
    let addresses: Database
    let prices: Database
    let events: Database
    let eventIDs: Database
    let cursors: Database
    let deadLetters: Database
    let watchState: Database
    /// Followed wallets' state (`WalletState`), by chain and wallet id.
    let wallets: Database?
    /// The script index: a wallet address's scriptPubKey → where it sits in which wallet.
    let walletScripts: Database?
    /// Addresses handed out by `watcher wallets next`.
    let walletIssued: Database?
    /// Payment requests (`PaymentRequest`), by chain and id.
    let requests: Database?
    /// A request's id by chain, wallet and order id: creating again with an order id finds it.
    let requestOrders: Database?
    /// Each price provider's latest quote, by currency and provider (`rate.sources` takes their median).
    let sourcePrices: Database?

    init(_ dbs: [String: Database]) {
        func db(_ name: String) -> Database {
            guard let db = dbs[name] else { preconditionFailure("table \(name) was not opened") }
            return db
        }
        meta = db("meta")
        tips = db("tips")
        headers = db("headers")
        accounts = db("accounts")
        addresses = db("addresses")
        prices = db("prices")
        events = db("events")
        eventIDs = db("event_ids")
        cursors = db("cursors")
        deadLetters = db("deadletters")
        watchState = db("watchstate")
        wallets = dbs["wallets"]
        walletScripts = dbs["walletscripts"]
        walletIssued = dbs["walletissued"]
        requests = dbs["requests"]
        requestOrders = dbs["requestorders"]
        sourcePrices = dbs["sourceprices"]
    }
}

/// Key layouts. Text parts are UTF-8 and separated by `/`; integers are fixed-width big-endian.
enum Keys {
    static func text(_ parts: String...) -> [UInt8] { Array(parts.joined(separator: "/").utf8) }
    static func chainPrefix(_ chain: String) -> [UInt8] { Array("\(chain)/".utf8) }
    static func header(_ chain: String, _ height: Int) -> [UInt8] {
        chainPrefix(chain) + UInt32(clamping: height).bigEndianBytes
    }
    static func deadLetter(_ sink: String, _ seq: UInt64) -> [UInt8] { Array("\(sink)/".utf8) + seq.bigEndianBytes }
    static let schemaVersion = text("schema_version")
    static let nextEventSeq = text("next_event_seq")
}
