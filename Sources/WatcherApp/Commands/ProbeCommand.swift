import ArgumentParser
import Foundation
import Logging
import Synchronization
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherHTTP
import WatcherJSON
import WatcherScheduler

/// `watcher probe`: asks one configured provider directly, bypassing storage and the scheduler (its rate limit
/// still applies), and prints the normalized answer as JSON.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Ask one provider directly and print its normalized answer as JSON.",
        discussion: """
            Queries and the fields of their JSON answers:
              tip                        height, hash
              health                     healthy, reason, bestHeight
              block <height|hash>        hash, height, time, merkleRoot, nonce,
                                         txCount, previousHash
              address <addr|bitcoin:URI> address, balanceSat, totalReceivedSat,
                                         totalSentSat, txCount,
                                         unconfirmedBalanceSat, unconfirmedTxCount
              txs <addr> [--limit N]     [txid, blockHeight, time, deltaSat]
              tx <txid>                  txid, blockHeight, confirmations, feeSat,
                                         inputs, outputs
              price [USD GBP EUR ...]    [currency, price, time]
            Times are ISO 8601 UTC, amounts satoshi, prices decimal strings; a
            value the provider cannot supply is null. The provider's rate limit
            applies. Exits 1 with a one-line reason naming the provider when it
            fails, and 2 for bad usage or an invalid address, before any request,
            or for a node on another chain than the provider's.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The id of a provider in the config.")
    var provider: String

    @Argument(help: "The query: tip, health, block, address, txs, tx or price, and its arguments.")
    var query: [String] = []

    @Option(help: "How many transactions `txs` lists.")
    var limit = 25

    /// A parsed query; parsing validates addresses, heights and txids before any request.
    enum Query: Equatable {
        case tip
        case health
        case block(BlockID)
        case address(String)
        case transactions(String)
        case transaction(String)
        case price([String])

        init(_ words: [String]) throws(CommandFailure) {
            let usage =
                "expected a query: tip | health | block <height|hash> | address <addr> | txs <addr> | tx <txid> | "
                + "price [CUR…]"
            guard let verb = words.first else { throw .usage(usage) }
            let rest = Array(words.dropFirst())
            func one(_ what: String) throws(CommandFailure) -> String {
                guard rest.count == 1 else { throw .usage("\(verb) takes exactly one \(what)") }
                return rest[0]
            }
            switch verb {
            case "tip" where rest.isEmpty: self = .tip
            case "health" where rest.isEmpty: self = .health
            case "block":
                let text = try one("height or hash")
                guard let id = BlockID(text) else {
                    throw .usage("invalid block \"\(text)\": expected a height or a 64-hex hash")
                }
                self = .block(id)
            case "address": self = .address(try Self.address(try one("address")))
            case "txs": self = .transactions(try Self.address(try one("address")))
            case "tx":
                let text = try one("txid")
                guard text.count == 64, text.allSatisfy(\.isHexDigit) else {
                    throw .usage("invalid txid \"\(text)\": expected 64 hex digits")
                }
                self = .transaction(text.lowercased())
            case "price":
                guard rest.allSatisfy({ (3...10).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } })
                else {
                    throw .usage("price takes currency codes such as USD GBP EUR")
                }
                self = .price(rest.map { $0.uppercased() })
            default: throw .usage(usage)
            }
        }

        /// The address the query asks about, if any.
        var address: String? {
            switch self {
            case .address(let address), .transactions(let address): address
            default: nil
            }
        }

        /// A validated address from an address or `bitcoin:` URI.
        static func address(_ text: String) throws(CommandFailure) -> String {
            do {
                return try LabeledAddress(parsing: text).address.string
            } catch {
                throw .usage(error.description)
            }
        }
    }

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        let query = try Query(query)
        let config = try options.load(needsSinks: false)
        guard let entry = config.provider(provider) else {
            let known = config.providers.map(\.id).joined(separator: ", ")
            throw CommandFailure.usage("no provider \"\(provider)\" in \(options.config) (providers: \(known))")
        }
        if let text = query.address, let network = BitcoinAddress.Network(chain: entry.chain),
            let address = try? LabeledAddress(parsing: text).address, !address.isValid(on: network)
        {
            throw CommandFailure.usage(
                "\(address.string) is a \(address.network) address; provider \(entry.id) serves chain "
                    + "\"\(entry.chain)\", which is \(network)"
            )
        }
        var logger = Logger(label: "watcher.probe")
        logger[metadataKey: "provider"] = "\(entry.id)"
        let http = HTTPClientService(logger: logger)
        let transport = HTTPTransport(client: http.client, userAgent: WatcherVersion.userAgent)
        let context = PluginContext(
            http: RateGate(transport, limit: entry.rateLimit),
            logger: logger,
            dataDirectory: config.storage.path,
            time: .system
        )
        let result: Result<JSONValue, any Error>
        do {
            result = .success(try await answer(query, entry: entry, context: context))
        } catch {
            result = .failure(error)
        }
        await http.shutdown()
        switch result {
        case .success(let json): Output.out(json.serialized(pretty: true))
        case .failure(let error as ProviderError): throw CommandFailure.runtime(error.description)
        case .failure(let error as CommandFailure): throw error
        case .failure(let error as ChainMismatch): throw CommandFailure.usage(error.description)
        case .failure(let error): throw CommandFailure.runtime("provider \(entry.id): \(error)")
        }
    }

    private func answer(_ query: Query, entry: ProviderConfig, context: PluginContext) async throws -> JSONValue {
        if case .price(let codes) = query {
            guard let feed = try entry.plugin.makePriceProvider(context: context) else {
                throw ProviderError.unsupported(provider: entry.id, operation: "prices")
            }
            let quotes = try await feed.quotes(for: codes.isEmpty ? feed.currencies : codes)
            return .array(quotes.map(Self.json))
        }
        guard let chain = try entry.plugin.makeChainProvider(context: context) else {
            throw ProviderError.unsupported(provider: entry.id, operation: "chain queries")
        }
        switch query {
        case .tip:
            let tip = try await chain.tip()
            return .object([.init("height", .number("\(tip.height)")), .init("hash", .string(tip.hash))])
        case .health:
            let health = try await chain.health()
            return .object([
                .init("healthy", .bool(health.isHealthy)),
                .init("reason", health.reason.map(JSONValue.string) ?? .null),
                .init("bestHeight", health.bestHeight.map { .number("\($0)") } ?? .null),
            ])
        case .block(let id): return Self.json(try await chain.block(id))
        case .address(let address): return Self.json(try await chain.address(address))
        case .transactions(let address):
            return .array(try await chain.addressTransactions(address, limit: limit, after: nil).map(Self.json))
        case .transaction(let txid):
            let transaction = try await chain.transaction(txid)
            var confirmations: Int?
            if transaction.blockHeight == nil {
                confirmations = 0
            } else if chain.capabilities.contains(.tip) {
                confirmations = transaction.confirmations(tipHeight: try await chain.tip().height)
            }
            return Self.json(transaction, confirmations: confirmations)
        case .price: return .null
        }
    }
}

extension ProbeCommand {
    static func json(_ header: BlockHeader) -> JSONValue { header.json }

    static func json(_ summary: AddressSummary) -> JSONValue { .object(summary.jsonMembers) }

    static func json(_ entry: AddressTx) -> JSONValue {
        .object([
            .init("txid", .string(entry.txid)), .init("blockHeight", number(entry.blockHeight)),
            .init("time", entry.time.map(time) ?? .null), .init("deltaSat", number(entry.deltaSat)),
        ])
    }

    static func json(_ transaction: ChainTransaction, confirmations: Int?) -> JSONValue {
        func endpoints(_ list: [TxEndpoint]) -> JSONValue {
            .array(
                list.map {
                    .object([
                        .init("address", $0.address.map(JSONValue.string) ?? .null),
                        .init("valueSat", number($0.valueSat)),
                    ])
                }
            )
        }
        return .object([
            .init("txid", .string(transaction.txid)), .init("blockHeight", number(transaction.blockHeight)),
            .init("confirmations", number(confirmations)), .init("feeSat", number(transaction.feeSat)),
            .init("inputs", endpoints(transaction.inputs)), .init("outputs", endpoints(transaction.outputs)),
        ])
    }

    static func json(_ quote: PriceQuote) -> JSONValue {
        .object([
            .init("currency", .string(quote.currency)), .init("price", .string("\(quote.price)")),
            .init("time", time(quote.time)),
        ])
    }

    static func number(_ value: (some BinaryInteger)?) -> JSONValue {
        value.map { .number("\($0)") } ?? .null
    }

    static func time(_ date: Date) -> JSONValue {
        .string(date.formatted(.iso8601))
    }
}

/// The provider's token bucket in front of the transport: a probe that needs several requests (history pages,
/// tip plus transaction) spends them at the configured rate, as the daemon would.
private final class RateGate: HTTPFetching {
    private let base: any HTTPFetching
    private let bucket: Mutex<TokenBucket<ContinuousClock.Instant>>

    init(_ base: any HTTPFetching, limit: RateLimit) {
        self.base = base
        self.bucket = Mutex(TokenBucket(limit: limit))
    }

    func fetch(_ request: HTTPRequestSpec) async throws -> HTTPResponseData {
        while true {
            let decision = bucket.withLock { $0.acquire(now: .now) }
            guard case .wait(let until) = decision else { break }
            try await Task.sleep(until: until, clock: .continuous)
        }
        return try await base.fetch(request)
    }
}
