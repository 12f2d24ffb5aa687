import WatcherCore
import WatcherJSON

/// `GET /api/v2/address/<addr>?details=&page=&pageSize=`.
extension BlockbookRenderer {
    /// The `details` levels Blockbook accepts for Bitcoin-type addresses.
    enum AddressDetails: String, Sendable {
        case basic
        case tokens
        case tokenBalances
        case txids
        case txslight
        case txs

        /// Parses the parameter; Blockbook falls back to `txids` (the REST default) for anything else.
        init(parameter: Substring?) {
            self = parameter.flatMap { Self(rawValue: String($0)) } ?? .txids
        }

        var hasPaging: Bool { self == .txids || self == .txslight || self == .txs }
    }

    func address(_ text: Substring, details: AddressDetails, page: Int?, pageSize: Int?) -> SimReply {
        guard !text.isEmpty else { return Self.error("Missing address") }
        let address: SimAddress
        do {
            address = try SimAddressParser.decode(String(text), network: chain.parameters.network)
        } catch {
            return Self.error("Invalid address, \(error)")
        }
        // A hidden address is answered as one no transaction ever touched: a provider lying by omission.
        let view = chain.view(of: hidden.contains(address.string) ? "" : address.string)
        let truth = view.truth
        var object = JSONObjectBuilder()
        let ordered = view.newestFirst
        var paging: Paging?
        if details.hasPaging {
            let size = pageSize.map { (1...1000).contains($0) ? $0 : 1000 } ?? 1000
            paging = Paging(count: ordered.count, page: page, itemsOnPage: size)
            paging?.append(to: &object)
        }
        object.add("address", .string(String(text)))
        object.add("balance", .satoshiString(truth.confirmedBalanceSat))
        object.add("totalReceived", .satoshiString(truth.totalReceivedSat))
        object.add("totalSent", .satoshiString(truth.totalSentSat))
        if details != .basic {
            object.add("unconfirmedBalance", .satoshiString(truth.unconfirmedBalanceSat))
            if truth.unconfirmedSentSat != 0 {
                object.add("unconfirmedSending", .satoshiString(truth.unconfirmedSentSat))
            }
            if truth.unconfirmedReceivedSat != 0 {
                object.add("unconfirmedReceiving", .satoshiString(truth.unconfirmedReceivedSat))
            }
        }
        object.add("unconfirmedTxs", .integer(truth.unconfirmedTxCount))
        object.add("txs", .integer(truth.confirmedTxCount))
        if let paging, !paging.range.isEmpty {
            let txids = ordered[paging.range]
            switch details {
            case .txids:
                object.add("txids", .array(txids.map { .string($0) }))
            case .txs, .txslight:
                let json = BlockbookTxJSON(chain: chain)
                let own = address.string
                let txs = txids.compactMap { chain.transaction($0) }
                object.add(
                    "transactions",
                    .array(txs.map { details == .txs ? json.full($0, own: [own]) : json.light($0) })
                )
            case .basic, .tokens, .tokenBalances:
                break
            }
        }
        return .json(object.value)
    }
}
