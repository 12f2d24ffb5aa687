import Foundation
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherRules
import WatcherStorage

/// Creates, cancels and marks payment requests through the store (`watcher requests …`, `/api/requests`): each in
/// one write transaction with its event, so it works while `watcher run` runs, and a retried create with the same
/// order id finds the first request instead of making a second.
package enum RequestDesk {
    /// A request created, or found by its order id.
    package struct Created: Sendable {
        /// The request.
        package var request: PaymentRequest
        /// Whether it is new (`false`: the order id's existing request).
        package var isNew: Bool
        /// The gap advice, when more consecutive unpaid request addresses are out than other wallets scan.
        package var warning: String?
    }

    /// Creates a request for `order` on `wallet` (whose watch has `terms`).
    package static func create(
        _ order: RequestOrder,
        wallet: FollowedWallet,
        terms: RequestTerms,
        chain: String,
        log: EventLog,
        builder: EventBuilder,
        now: Date
    ) async throws -> Created {
        try order.validate()
        var terms = terms
        if let expires = order.expires { terms.expiresSeconds = Int(expires.components.seconds) }
        let termsUsed = terms
        let created = try await log.store.write(.commit) { txn -> (Created, [NewEvent]) in
            if let orderId = order.orderId,
                let existing = try txn.request(chain: chain, wallet: wallet.id, orderId: orderId)
            {
                return (Created(request: existing, isNew: false), [])
            }
            let (dueSat, fiat) = try amount(order.amount, terms: termsUsed, txn: txn, now: now)
            let ref = try WalletIssuer.issue(wallet, chain: chain, label: order.label, txn: txn, now: now)
            let address = try wallet.address(.receive, ref.index)
            let request = PaymentRequest(
                id: PaymentRequest.id(chain: chain, wallet: wallet.id, address: address),
                chain: chain,
                wallet: wallet.id,
                index: ref.index,
                address: address,
                dueSat: dueSat,
                terms: termsUsed,
                createdAt: now,
                label: order.label,
                orderId: order.orderId,
                fiat: fiat
            )
            try txn.putRequest(request)
            let event = RequestEvents.created(request, builder: builder)
            _ = try txn.appendEvent(id: event.id, type: event.type, body: event.body)
            let warning = try gapWarning(wallet: wallet.id, chain: chain, limit: termsUsed.gapWarn, txn: txn)
            return (Created(request: request, isNew: true, warning: warning), [event])
        }
        if !created.1.isEmpty { log.signal.notify() }
        return created.0
    }

    /// The amount due in sat, with the quote for a fiat amount.
    static func amount(
        _ amount: RequestOrder.Amount,
        terms: RequestTerms,
        txn: StoreTransaction<WriteTransaction>,
        now: Date
    )
        throws -> (Int64, PaymentRequest.FiatAmount?)
    {
        switch amount {
        case .sat(let sat):
            return (sat, nil)
        case .fiat(let value, let currency):
            let latest = try txn.price(currency: currency)
            let stored = try txn.sourcePrices(currency: currency, providers: terms.rateSources ?? [])
            let quote: PriceQuote?
            let sources: [PriceQuote]?
            let sat: Int64
            do {
                (quote, sources) = try RequestQuote.quote(
                    currency: currency,
                    terms: terms,
                    latest: latest,
                    stored: stored,
                    now: now
                )
                sat = try RequestQuote.sats(
                    amount: value,
                    quote: quote,
                    currency: currency,
                    maxAgeSeconds: terms.maxRateAgeSeconds,
                    now: now
                )
            } catch {
                throw RequestOrder.Refusal("currency", error.description)
            }
            guard sat >= RequestOrder.dustSat, let quote else {
                throw RequestOrder.Refusal("amount", "\(value) \(currency) is \(sat) sat, below the dust limit")
            }
            let fiat = PaymentRequest.FiatAmount(
                amount: value,
                currency: currency,
                rate: quote.price,
                source: quote.provider,
                quotedAt: quote.time,
                quotes: sources
            )
            return (sat, fiat)
        }
    }

    /// The advice when more than `limit` of the newest addresses handed out of `wallet` (requests and `wallets
    /// next`) are in a row unused: a wallet restored elsewhere scans `limit` unused addresses and would stop before
    /// a payment past them. Reads at most `limit` + 1 addresses, newest first.
    package static func gapWarning<Txn>(wallet: String, chain: String, limit: Int, txn: StoreTransaction<Txn>) throws
        -> String?
    {
        let newest = try txn.newestIssuedAddresses(chain: chain, wallet: wallet, limit: limit + 1)
        var unused = 0
        for issued in newest {
            let state = try txn.addressState(chain: chain, address: issued.address)
            guard state.map({ $0.txs.isEmpty && ($0.summary?.txCount ?? 0) == 0 }) ?? true else { break }
            unused += 1
        }
        guard unused > limit else { return nil }
        return "more than \(limit) addresses handed out of wallet \"\(wallet)\" in a row are unpaid; a wallet "
            + "restored elsewhere scans \(limit) (requests.gapWarn) and would miss a payment past them"
    }

    /// Cancels request `id`.
    package static func cancel(id: String, chain: String, note: String?, log: EventLog, builder: EventBuilder)
        async throws -> PaymentRequest
    {
        try await change(id: id, chain: chain, log: log) { request in
            try RequestActions.cancel(request, note: note, builder: builder)
        }
    }

    /// Marks request `id` settled or invalid.
    package static func mark(
        id: String,
        chain: String,
        as status: PaymentRequest.Status,
        note: String?,
        log: EventLog,
        builder: EventBuilder
    ) async throws -> PaymentRequest {
        try await change(id: id, chain: chain, log: log) { request, tip in
            try RequestActions.mark(request, as: status, note: note, tipHeight: tip, builder: builder)
        }
    }

    private static func change(
        id: String,
        chain: String,
        log: EventLog,
        _ body: @escaping @Sendable (PaymentRequest, Int?) throws -> (PaymentRequest, [NewEvent])
    ) async throws -> PaymentRequest {
        let (request, appended) = try await log.store.write(.commit) { txn -> (PaymentRequest, Bool) in
            guard let request = try txn.request(chain: chain, id: id) else { throw RequestActions.NotFound(id: id) }
            let (changed, events) = try body(request, try txn.tip(chain: chain)?.height)
            try txn.putRequest(changed)
            var appended = false
            for event in events where try txn.appendEvent(id: event.id, type: event.type, body: event.body) != nil {
                appended = true
            }
            return (changed, appended)
        }
        if appended { log.signal.notify() }
        return request
    }

    private static func change(
        id: String,
        chain: String,
        log: EventLog,
        _ body: @escaping @Sendable (PaymentRequest) throws -> (PaymentRequest, [NewEvent])
    ) async throws -> PaymentRequest {
        try await change(id: id, chain: chain, log: log) { request, _ in try body(request) }
    }
}
