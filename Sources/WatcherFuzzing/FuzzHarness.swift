import BlockbookAdapter
import CoinDeskAdapter
import ElectrumAdapter
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
    /// Output descriptors, KEY expressions and wallets (a descriptor or a bare extended key) on every network.
    case descriptor
    /// Extended public keys (Base58Check, BIP32 and SLIP-132 versions).
    case xpub
    /// A byte stream from an Electrum server: the line reader (with its length cap) and the message decoder
    /// (replies, notifications, server requests), and a header notification's 80-byte header.
    case electrum

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
        case .descriptor: Self.descriptor(bytes)
        case .xpub: Self.xpub(bytes)
        case .electrum: ElectrumMessage.fuzz(bytes)
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
        // The echoed descriptor as the one asked, so that the rest of the body is read too.
        let echoed = (try? node["address"]?.string()) ?? "fuzz"
        _ = try? decoder.walletSummary(node, descriptor: echoed)
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

    static func descriptor(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        for network in BitcoinAddress.Network.allCases {
            if let parsed = try? Descriptor(text, network: network) {
                // An accepted descriptor's printed form parses back, prints the same, and gives the same scripts.
                let printed = parsed.description
                guard let again = try? Descriptor(printed, network: network) else {
                    preconditionFailure("descriptor \(printed) does not parse back")
                }
                precondition(again.description == printed, "descriptor \(printed) prints as \(again.description)")
                for branch in 0..<parsed.branchCount {
                    for index: UInt32 in [0, 1] {
                        let script = try? parsed.scriptPubKey(branch: branch, index: index)
                        let scriptAgain = try? again.scriptPubKey(branch: branch, index: index)
                        precondition(
                            script == scriptAgain,
                            "descriptor \(printed): scripts differ at \(branch)/\(index)"
                        )
                        _ = try? parsed.address(branch: branch, index: index)
                    }
                }
            }
            if let wallet = try? WalletDescriptor(parsing: text, network: network) {
                _ = wallet.description
                _ = wallet.identity
                let printed = wallet.descriptor.description
                guard let again = try? WalletDescriptor(parsing: printed, network: network) else {
                    preconditionFailure("wallet \(printed) does not parse back")
                }
                for branch in WalletDescriptor.Branch.allCases where branch == .receive || wallet.change != nil {
                    for index: UInt32 in [0, 1] {
                        let script = try? wallet.scriptPubKey(branch, index: index)
                        let scriptAgain = try? again.scriptPubKey(branch, index: index)
                        precondition(script == scriptAgain, "wallet \(printed): scripts differ at \(branch) \(index)")
                        _ = try? wallet.address(branch, index: index)
                    }
                }
            }
        }
        _ = try? DescriptorKey(text, network: .mainnet)
        _ = DescriptorChecksum.checksum(text)
    }

    static func xpub(_ bytes: [UInt8]) {
        // The input as the key's text, and as the 78-byte payload under a valid checksum: a mutated text almost
        // never passes Base58Check, so the payload form is what reaches the checks of version, depth, fingerprint,
        // child number and key (the corpus holds both forms of each seed key).
        xpubText(String(decoding: bytes, as: UTF8.self))
        // Base58 encoding costs the square of the length: only payloads of a key's size (78, WIF 33/34) matter.
        if bytes.count <= 100, let key = xpubText(Base58.encode(bytes + Base58.checksum(bytes))) {
            precondition(key.serialized == bytes, "extended key does not re-serialise to its payload")
        }
    }

    /// Parses `text` as an extended key; an accepted one re-serialises to `text` and is exercised further.
    @discardableResult
    static func xpubText(_ text: String) -> ExtendedPublicKey? {
        guard let key = try? ExtendedPublicKey(text) else { return nil }
        // An accepted key re-serialises to the same string, which parses to the same key.
        precondition(key.string == text, "extended key does not re-serialise to its text")
        precondition((try? ExtendedPublicKey(key.string)) == key, "extended key does not read back")
        _ = try? key.child(0)
        _ = try? key.derive([1, 2])
        for network in BitcoinAddress.Network.allCases {
            _ = try? ExtendedPublicKey(text, network: network)
            if let wallet = try? WalletDescriptor(accountKey: key, network: network) {
                _ = try? wallet.address(.receive, index: 0)
            }
        }
        return key
    }
}
