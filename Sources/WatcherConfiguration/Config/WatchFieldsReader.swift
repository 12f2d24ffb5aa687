import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Reads the fields specific to each watch type, and rejects fields that belong to another type.
struct WatchFieldsReader {
    var maxBackfill: Int?
    var addresses: [WatchConfig.WatchedAddress] = []
    var confirmations: [Int] = []
    var txid: String?
    var currency: String?
    var above: [Decimal] = []
    var below: [Decimal] = []
    var changePercent: Decimal?
    var window: Duration?
    var emitUpdates = false
    var median = false
    var reorgSafety: Int?
    var from: Int?
    var strategy: WatchConfig.AddressStrategy?
    var wallet: WalletDescriptor?
    var gap: Int?
    var label: String?
    var agree: Int?
    var maxLag: Int?
    var requests: RequestTerms?

    init(reader: ObjectReader, kind: WatchConfig.Kind?, chain: String? = nil) {
        let context = reader.context
        let network = chain.flatMap(BitcoinAddress.Network.init(chain:))
        let fieldsOf: [WatchConfig.Kind: [String]] = [
            .blocks: ["maxBackfill"],
            .address: ["addresses", "confirmations", "reorgSafety", "from", "strategy", "agree", "maxLag"],
            .tx: ["txid", "confirmations", "reorgSafety", "agree", "maxLag"],
            .price: ["currency", "above", "below", "changePercent", "window", "emitUpdates", "median"],
            .wallet: [
                "descriptor", "xpub", "gap", "label", "confirmations", "reorgSafety", "from", "strategy", "agree",
                "maxLag", "requests",
            ],
        ]
        if let kind {
            for (other, keys) in fieldsOf where other != kind {
                for key in keys
                where !(fieldsOf[kind] ?? []).contains(key) && reader.members.contains(where: { $0.key == key }) {
                    context.error(
                        reader.path.key(key),
                        "\"\(key)\" belongs to \(other.rawValue) watches, not \(kind.rawValue)"
                    )
                }
            }
        }
        let wants = { (key: String) in kind.map { fieldsOf[$0]?.contains(key) ?? false } ?? false }

        maxBackfill = reader.int(
            "maxBackfill",
            default: 100,
            range: 0...10_000,
            doc: "Most missed blocks announced after downtime."
        )
        let addressTexts = reader.array("addresses", required: wants("addresses"), doc: "Addresses or bitcoin: URIs.")
        if wants("addresses"), addressTexts.isEmpty, reader.members.contains(where: { $0.key == "addresses" }) {
            context.error(reader.path.key("addresses"), "expected at least one address")
        }
        var firstPaths: [String: ConfigPath] = [:]
        for (path, value) in addressTexts {
            guard case .string(let text) = value else {
                context.error(path, "expected an address or bitcoin: URI string, got \(value.typeDescription)")
                continue
            }
            do {
                let parsed = try LabeledAddress(parsing: text)
                let address = parsed.address.string
                if let network, let chain, !parsed.address.isValid(on: network) {
                    context.error(
                        path,
                        "\(JSONValue.quoted(address)) is a \(parsed.address.network) address; chain \"\(chain)\" "
                            + "is \(network)"
                    )
                    continue
                }
                if let first = firstPaths[address] {
                    context.error(path, "duplicate address \(JSONValue.quoted(address)) (first listed at \(first))")
                    continue
                }
                firstPaths[address] = path
                addresses.append(.init(address: address, label: parsed.label))
            } catch {
                context.error(path, "\(error)")
            }
        }
        if !addressTexts.isEmpty { reader.show("addresses", .array(addressTexts.map(\.value))) }

        let thresholds = reader.array("confirmations", doc: "Confirmation counts to announce, e.g. [1, 3, 6].")
        for (path, value) in thresholds {
            guard case .number(let text) = value, let count = Int(text), (1...10_000).contains(count) else {
                context.error(path, "expected a confirmation count from 1 to 10000, got \(value.serialized())")
                continue
            }
            confirmations.append(count)
        }
        if thresholds.isEmpty, wants("confirmations") { confirmations = [1, 3, 6] }
        reader.show("confirmations", wants("confirmations") ? .array(confirmations.map { .number("\($0)") }) : nil)

        reorgSafety = reader.int(
            "reorgSafety",
            default: 6,
            range: 0...1_000,
            doc: "Blocks a transaction is still followed past its highest threshold, to report a later reorg."
        )
        from = reader.int(
            "from",
            range: 0...100_000_000,
            doc: "Block height from which payments are announced at the first poll (default: after the tip then)."
        )

        strategy = reader.choice(
            "strategy",
            WatchConfig.AddressStrategy.allCases.map(\.rawValue),
            default: "auto",
            doc: "auto, poll (per address, sees the mempool), scan (each block once; cost per block) or xpub (wallet "
                + "watches: one wallet-summary request per round, e.g. Blockbook's /api/v2/xpub)."
        ).flatMap(WatchConfig.AddressStrategy.init(rawValue:))

        readWallet(reader, wanted: wants("descriptor"), chain: chain)
        readTrust(reader)
        readRequests(reader, wanted: wants("requests"))

        txid = reader.string("txid", required: wants("txid"), doc: "The transaction to follow.")
        if let txid, !(txid.count == 64 && txid.allSatisfy(\.isHexDigit)) {
            context.error(reader.path.key("txid"), "expected a 64-hex-digit txid, got \(JSONValue.quoted(txid))")
        }
        currency = reader.string("currency", default: wants("currency") ? "USD" : nil, doc: "Fiat currency code.")
        if let code = currency, !(code.count == 3 && code.allSatisfy { $0.isASCII && $0.isLetter }) {
            context.error(
                reader.path.key("currency"),
                "expected a 3-letter currency code, got \(JSONValue.quoted(code))"
            )
            currency = nil
        }
        above = reader.decimals(
            "above",
            greaterThan: 0,
            doc: "Announce when the price rises through these levels."
        )
        below = reader.decimals(
            "below",
            greaterThan: 0,
            doc: "Announce when the price falls through these levels."
        )
        changePercent = reader.decimal(
            "changePercent",
            greaterThan: 0,
            atMost: 1000,
            doc: "Announce a move of at least this percent within window."
        )
        window = reader.duration("window", minimum: .seconds(1), doc: "The window for changePercent.")
        emitUpdates = reader.bool("emitUpdates", default: false, doc: "Emit price.updated on every fetch.")
        median = reader.bool(
            "median",
            default: false,
            doc: "Ask every provider each round and judge on the median of their quotes (else the first that answers)."
        )
        if wants("window") {
            // Whether a key is written at all: a bad value is reported on its own, not as a missing partner.
            let written = { (key: String) in
                reader.members.contains { member in
                    if case .null = member.value { return false }
                    return member.key == key
                }
            }
            if written("changePercent"), !written("window") {
                context.error(reader.path.key("window"), "changePercent needs a window, e.g. \"1h\"")
            }
            if written("window"), !written("changePercent") {
                context.error(reader.path.key("changePercent"), "window needs a changePercent, e.g. 5")
            }
        }
        // `watcher check` shows only this type's fields, so that its output loads again.
        for key in Set(fieldsOf.values.joined()) where !wants(key) {
            reader.hide(key)
        }
    }

    func apply(to watch: inout WatchConfig) {
        watch.maxBackfill = maxBackfill ?? 100
        watch.addresses = addresses
        watch.confirmations = confirmations.sorted()
        watch.txid = txid?.lowercased()
        watch.currencies = currency.map { [$0.uppercased()] } ?? []
        watch.above = above
        watch.below = below
        watch.changePercent = changePercent
        watch.window = window
        watch.emitUpdates = emitUpdates
        watch.median = median
        watch.reorgSafety = reorgSafety ?? 6
        watch.from = from
        watch.strategy = strategy ?? .auto
        watch.wallet = wallet
        watch.gap = gap ?? 20
        watch.label = label
        watch.agree = agree ?? 1
        watch.maxLag = maxLag ?? 2
        watch.requests = requests
    }
}
