import ArgumentParser
import WatcherCore
import WatcherJSON
import WatcherRules

/// `watcher requests list [--status S] [--json]`.
struct RequestsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List payment requests.")

    @OptionGroup var options: ConfigOptions

    @Option(
        help:
            "Only requests with this status (open, partial, paid, settled, expired, late, invalid, reverted, cancelled)."
    )
    var status: String?

    @Flag(help: "Print JSON: an array of requests.")
    var json = false

    func run() async throws {
        var wanted: PaymentRequest.Status?
        if let status {
            guard let parsed = PaymentRequest.Status(rawValue: status) else {
                let known = PaymentRequest.Status.allCases.map(\.rawValue).joined(separator: ", ")
                throw CommandFailure.usage("--status: unknown status \"\(status)\"; known: \(known)")
            }
            wanted = parsed
        }
        let config = try options.load(needsSinks: false)
        let (all, tips) = try RequestsSupport.read(config)
        let requests = all.filter { wanted == nil || $0.status == wanted }
        if json {
            let items = requests.map { JSONValue.object(RequestEvents.json($0, tipHeight: tips[$0.chain])) }
            Output.out(JSONValue.array(items).serialized(pretty: true))
            return
        }
        guard !requests.isEmpty else {
            Output.out(wanted == nil ? "no payment requests" : "no \(wanted!.rawValue) payment requests")
            return
        }
        var rows = [["ID", "WALLET", "STATUS", "DUE SAT", "PAID SAT", "ORDER", "ADDRESS"]]
        for request in requests {
            rows.append([
                request.id, request.wallet, request.status.rawValue + RequestsSupport.flags(request),
                "\(request.dueSat)", "\(request.paidSat)", request.orderId ?? "", request.address,
            ])
        }
        Output.out(TextTable.render(rows).joined(separator: "\n"))
    }
}
