import BlockbookAdapter
import CoinDeskAdapter
import Foundation
import JSONPriceAdapter
import RawAddrAdapter
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherHTTP
import WatcherPlugins
import WatcherSinks

/// The parsers that face the outside, each as a function of arbitrary bytes that must never crash, hang or
/// leak: `watcher-fuzz` runs them under libFuzzer (`make fuzz`), and the tests replay every corpus file and
/// every crash ever found through the same functions. See `docs/fuzzing.md`.
public enum FuzzHarness: String, CaseIterable, Sendable {
    /// The config parser and loader with every built-in plugin's options.
    case config
    /// Addresses and `bitcoin:` URIs.
    case address
    /// Every Blockbook decoder on one JSON body.
    case blockbook
    /// Every blockchain.info-style decoder on one JSON body.
    case rawaddr
    /// The CoinDesk BPI decoder.
    case coindesk
    /// A JSON path (first line) resolved in a JSON body (the rest), as the json-price feed does.
    case jsonPrice = "json-price"
    /// Standard Webhooks signature verification of arbitrary headers and body.
    case webhookSignature = "webhook-signature"

    /// Runs the harness on `bytes`. Errors are expected answers; only a crash is a finding.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .config: Self.config(bytes)
        case .address: Self.address(bytes)
        case .blockbook: Self.blockbook(bytes)
        case .rawaddr: Self.rawaddr(bytes)
        case .coindesk: Self.coindesk(bytes)
        case .jsonPrice: Self.jsonPrice(bytes)
        case .webhookSignature: Self.webhookSignature(bytes)
        }
    }

    static let registry = PluginRegistry.builtIn

    static func config(_ bytes: [UInt8]) {
        let loader = ConfigLoader(registry: registry, environment: ["SECRET": "s3cret", "TOKEN": "t0ken"])
        if let config = try? loader.load(bytes: bytes) {
            _ = JobPlan(config: config)
            _ = BudgetPlan(config: config)
        }
    }

    static func address(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let parsed = try? LabeledAddress(parsing: text) {
            // An accepted address reads back as itself: the canonical text parses to the same address.
            let again = try? BitcoinAddress(parsed.address.string)
            precondition(again == parsed.address, "address \(parsed.address) does not read back as itself")
            _ = parsed.address.isValid(on: .mainnet)
        }
        _ = try? BitcoinURI.parse(text)
    }

    static func node(_ bytes: [UInt8]) -> ProviderHTTP.JSONNode? {
        try? ProviderHTTP.json(bytes, provider: "fuzz")
    }

    static func blockbook(_ bytes: [UInt8]) {
        guard let node = node(bytes) else { return }
        let decoder = BlockbookDecoder(provider: "fuzz")
        _ = try? decoder.health(node)
        _ = try? decoder.header(node)
        _ = try? decoder.header(node, matching: .height(1))
        _ = try? decoder.transactionPage(node, requested: 1)
        _ = try? decoder.transaction(node)
        _ = try? decoder.summary(node, address: "bc1qfuzz")
        _ = try? decoder.history(node, address: "bc1qfuzz")
        _ = try? decoder.quotes(node, currencies: ["USD", "GBP", "EUR"])
    }

    static func rawaddr(_ bytes: [UInt8]) {
        guard let node = node(bytes) else { return }
        let decoder = RawAddrDecoder(provider: "fuzz")
        _ = try? decoder.tip(node)
        _ = try? decoder.rawaddrSummary(node, address: "1Fuzz", pageSize: 50)
        _ = try? decoder.rawaddrHistory(node, address: "1Fuzz")
        _ = try? decoder.multiaddrSummaries(node, addresses: ["1Fuzz", "bc1qfuzz"], txCount: 50)
    }

    static func coindesk(_ bytes: [UInt8]) {
        guard let node = node(bytes) else { return }
        _ = try? CoinDeskDecoder(provider: "fuzz").quotes(node, currencies: ["USD", "GBP", "EUR"])
    }

    static func jsonPrice(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        let pathText = String(decoding: bytes[..<split], as: UTF8.self)
        let body = split < bytes.endIndex ? Array(bytes[bytes.index(after: split)...]) : []
        guard let path = JSONPath(JSONPriceFeed.fill(pathText, currency: "USD")) else { return }
        _ = path.description
        guard let node = node(body), let found = path.resolve(in: node) else { return }
        _ = try? found.decimal()
        _ = try? found.date()
    }

    static func webhookSignature(_ bytes: [UInt8]) {
        // Lines: secret, id, timestamp, signature header; the rest is the body.
        var lines: [String] = []
        var rest = bytes[...]
        while lines.count < 4, let newline = rest.firstIndex(of: 0x0A) {
            lines.append(String(decoding: rest[..<newline], as: UTF8.self))
            rest = rest[rest.index(after: newline)...]
        }
        while lines.count < 4 { lines.append("") }
        let body = Array(rest)
        // What we sign verifies, and verifies only for the same body.
        if let seconds = Int(lines[2]),
            let header = WebhookSignature.sign(
                secret: lines[0],
                id: lines[1],
                timestamp: seconds,
                body: body
            )
        {
            precondition(
                WebhookSignature.verify(secret: lines[0], id: lines[1], timestamp: seconds, body: body, header: header)
            )
            precondition(
                !WebhookSignature.verify(
                    secret: lines[0],
                    id: lines[1],
                    timestamp: seconds,
                    body: body + [0],
                    header: header
                )
            )
        }
        _ = WebhookSignature.verify(
            secret: lines[0],
            id: lines[1],
            timestamp: lines[2],
            signature: lines[3],
            body: body,
            now: Date(timeIntervalSince1970: Double(Int(lines[2]) ?? 0))
        )
        if let seconds = Int(lines[2]) {
            _ = WebhookSignature.verify(
                secret: lines[0],
                id: lines[1],
                timestamp: seconds,
                body: body,
                header: lines[3]
            )
        }
    }
}
