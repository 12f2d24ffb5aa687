import Foundation
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherRules
import WatcherStorage

/// What the `requests` subcommands share: finding the wallet and printing a request.
enum RequestsSupport {
    /// The wallet watch `id`, the wallet, and its request terms; a usage error when it takes no requests.
    static func wallet(_ id: String, in config: WatcherConfig) throws -> (WatchConfig, FollowedWallet, RequestTerms) {
        let watch = try WalletsStore.watch(id, in: config)
        guard let terms = watch.requests else {
            throw CommandFailure.usage(
                "wallet \(JSONValue.quoted(id)) takes no payment requests: add \"requests\": {} to its watch"
            )
        }
        guard let descriptor = watch.wallet else { throw CommandFailure.usage("wallet \(id) has no descriptor") }
        let wallet = FollowedWallet(
            id: watch.id,
            descriptor: descriptor,
            gap: watch.gap,
            thresholds: watch.confirmations,
            reorgSafety: watch.reorgSafety,
            from: watch.from,
            label: watch.label,
            strategy: watch.strategy
        )
        return (watch, wallet, terms)
    }

    /// The chains of the wallets that take requests.
    static func chains(_ config: WatcherConfig) -> [String] {
        Set(config.watches.filter { $0.kind == .wallet && $0.requests != nil }.map(\.chain)).sorted()
    }

    /// Prints one request: JSON, or the lines a merchant reads.
    static func print(_ request: PaymentRequest, tip: Int?, json: Bool, existing: Bool = false) {
        if json {
            Output.out(JSONValue.object(RequestEvents.json(request, tipHeight: tip)).serialized(pretty: true))
            return
        }
        var lines = [
            "\(request.id)  \(request.status.rawValue)\(flags(request))\(existing ? "  (existing request for this order id)" : "")",
            "address   \(request.address) (\(request.wallet) receive \(request.index))",
            "uri       \(RequestURI.make(request))",
            "due       \(request.dueSat) sat\(request.fiat.map { " (\($0.amount) \($0.currency) at \($0.rate), \($0.source))" } ?? "")",
            "paid      \(request.paidSat) sat",
            "expires   \(ISO8601Time.stringWithMilliseconds(request.expiresAt))",
        ]
        if let orderId = request.orderId { lines.append("order     \(orderId)") }
        if let policy = request.policy { lines.append("settled   by \(policy)") }
        for payment in request.payments {
            let confirmations = payment.confirmations(tip: tip)
            lines.append(
                "payment   \(payment.txid) \(payment.sat) sat, \(confirmations) conf, \(payment.state.rawValue)"
                    + (payment.replacedBy.map { " by \($0)" } ?? "")
                    + (payment.facts?.feeRate.map { ", \($0) sat/vB" } ?? "")
                    + (payment.nextBlockFee.map { " (next block needed \($0.satPerVB))" } ?? "")
                    + (payment.seenBy.map { ", seen by \($0.joined(separator: ", "))" } ?? "")
            )
        }
        Output.out(lines.joined(separator: "\n"))
    }

    static func flags(_ request: PaymentRequest) -> String {
        let flags = [request.overpaid ? "overpaid" : nil, request.late ? "late" : nil, request.marked ? "marked" : nil]
            .compactMap { $0 }
        return flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]"
    }

    /// Every request of the config's request wallets, read-only; none when no store exists yet.
    static func read(_ config: WatcherConfig) throws -> (requests: [PaymentRequest], tips: [String: Int]) {
        guard FileManager.default.fileExists(atPath: config.storage.path + "/data.mdb") else { return ([], [:]) }
        let store = try StoreAccess.reader(config)
        defer { store.environment.close() }
        var requests: [PaymentRequest] = []
        var tips: [String: Int] = [:]
        try store.read { txn in
            for chain in chains(config) {
                requests += try txn.requests(chain: chain)
                tips[chain] = try txn.tip(chain: chain)?.height
            }
        }
        return (requests.sorted { $0.createdAt < $1.createdAt }, tips)
    }
}
