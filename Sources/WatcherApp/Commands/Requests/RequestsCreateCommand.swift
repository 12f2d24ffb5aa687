import ArgumentParser
import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherJSON
import WatcherRequests
import WatcherRules
import WatcherStorage

/// `watcher requests create <wallet> (--sat N | --amount X --currency EUR)`: a request on a fresh receive address.
struct RequestsCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a payment request on a wallet's next receive address.",
        discussion: """
            The wallet's watch needs a "requests" block. A fiat amount is turned into sat at the stored price \
            (rounded up), which a price watch for the currency keeps fresh. Creating again with the same --order-id \
            prints the existing request instead of making a second one. Works while `watcher run` runs.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The wallet's watch id.")
    var wallet: String

    @Option(help: "The amount due in sat.")
    var sat: Int64?

    @Option(help: "The amount due in --currency, e.g. 25.00.")
    var amount: String?

    @Option(help: "The currency of --amount: USD, EUR or GBP.")
    var currency: String?

    @Option(help: "Names the payee or the order in the bitcoin: URI; at most 100 characters.")
    var label: String?

    @Option(name: .customLong("order-id"), help: "Your order id: a second create with it returns this request.")
    var orderId: String?

    @Option(help: "How long it is open for payment (e.g. 15m, 1h); default: the wallet's requests.expires.")
    var expires: String?

    @Flag(help: "Print the request as JSON.")
    var json = false

    func run() async throws {
        let order = try self.order()
        do { try order.validate() } catch { throw CommandFailure.usage("--\(Self.flag(error.field)): \(error.reason)") }
        let config = try options.load(needsSinks: false)
        let (watch, wallet, terms) = try RequestsSupport.wallet(self.wallet, in: config)
        let store = try StoreAccess.writer(config)
        let created: RequestDesk.Created
        do {
            created = try await RequestDesk.create(
                order,
                wallet: wallet,
                terms: terms,
                chain: watch.chain,
                log: EventLog(store: store),
                builder: EventBuilder(),
                now: Date()
            )
        } catch let refusal as RequestOrder.Refusal {
            await store.close()
            throw CommandFailure.usage("--\(Self.flag(refusal.field)): \(refusal.reason)")
        } catch {
            await store.close()
            throw CommandFailure.runtime("could not create the request: \(error)")
        }
        let tip = try? store.read { try $0.tip(chain: watch.chain)?.height }
        await store.close()
        if let warning = created.warning { Output.err("warning: \(warning)") }
        RequestsSupport.print(created.request, tip: tip ?? nil, json: json, existing: !created.isNew)
    }

    /// The order from the flags: exactly one of --sat or --amount with --currency.
    func order() throws -> RequestOrder {
        let parsedExpires: Duration?
        if let expires {
            guard let duration = Duration(configText: expires) else {
                throw CommandFailure.usage("--expires: expected a duration such as 15m or 1h, got \"\(expires)\"")
            }
            parsedExpires = duration
        } else {
            parsedExpires = nil
        }
        let value: RequestOrder.Amount
        switch (sat, amount, currency) {
        case (let sat?, nil, nil):
            value = .sat(sat)
        case (nil, let text?, let code?):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
                text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" })
            else { throw CommandFailure.usage("--amount: expected a decimal number such as 25.00, got \"\(text)\"") }
            value = .fiat(decimal, currency: code.uppercased())
        case (nil, _?, nil):
            throw CommandFailure.usage("--amount needs --currency (USD, EUR or GBP)")
        case (nil, nil, _?):
            throw CommandFailure.usage("--currency needs --amount")
        case (nil, nil, nil):
            throw CommandFailure.usage("give the amount due: --sat N, or --amount X --currency EUR")
        default:
            throw CommandFailure.usage("give either --sat or --amount with --currency, not both")
        }
        return RequestOrder(wallet: wallet, amount: value, label: label, orderId: orderId, expires: parsedExpires)
    }

    static func flag(_ field: String) -> String { field == "orderId" ? "order-id" : field }
}
