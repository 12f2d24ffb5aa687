import Foundation
import WatcherCore
import WatcherQR
import WatcherRules

/// The Requests tab: payment requests with their status (open ones first), and a request's page with its QR code
/// (the exact `bitcoin:` URI, served as `/ui/requests/{id}/qr.png` and `.svg`), its amounts and payments.
enum RequestFragments {
    static func list(_ requests: [PaymentRequest]) -> String {
        guard !requests.isEmpty else {
            return WebFragments.empty(
                "No payment requests: add \"requests\": {} to a wallet watch, then `watcher requests create`."
            )
        }
        let waiting: Set<PaymentRequest.Status> = [.open, .partial, .paid, .late, .reverted]
        let newest = requests.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        let ordered = newest.filter { waiting.contains($0.status) } + newest.filter { !waiting.contains($0.status) }
        let rows = ordered.map { request in
            let id = WebFragments.escape(request.id)
            return #"<tr class="request-row" tabindex="0" data-request="\#(id)"><td><code>\#(id)</code></td>"#
                + "<td>\(WebFragments.escape(request.wallet))</td>"
                + "<td>\(WebFragments.escape(request.orderId ?? ""))</td>"
                + #"<td class="status status-\#(request.status.rawValue)">\#(status(request))</td>"#
                + #"<td class="amount">\#(request.dueSat)</td><td class="amount">\#(request.paidSat)</td>"#
                + "<td>\(WebFragments.time(request.expiresAt))</td></tr>"
        }
        return #"<table id="requests-table"><thead><tr><th>Request</th><th>Wallet</th><th>Order</th><th>Status</th>"#
            + "<th>Due (sat)</th><th>Paid (sat)</th><th>Expires</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table>"
    }

    static func status(_ request: PaymentRequest) -> String {
        let flags = [request.overpaid ? "overpaid" : nil, request.late ? "late" : nil, request.marked ? "marked" : nil]
            .compactMap { $0 }
        return request.status.rawValue + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
    }

    static func detail(_ request: PaymentRequest, tipHeight: Int?) -> String {
        let uri = RequestURI.make(request)
        let id = WebFragments.escape(request.id)
        var rows: [(String, String)] = [
            (
                "Status",
                WebFragments.escape(status(request)) + (request.policy.map { " · by \(WebFragments.escape($0))" } ?? "")
            ),
            ("Due", "\(request.dueSat) sat (\(Satoshi.btc(request.dueSat)) BTC)"),
            ("Paid", "\(request.paidSat) sat"),
            ("Address", "<code>\(WebFragments.escape(request.address))</code> (receive \(request.index))"),
            ("URI", #"<code id="request-uri">\#(WebFragments.escape(uri))</code>"#),
            ("Expires", WebFragments.time(request.expiresAt)),
            ("Settle by", WebFragments.time(request.settleBy)),
        ]
        if let fiat = request.fiat {
            rows.insert(
                ("Amount", WebFragments.escape("\(fiat.amount) \(fiat.currency) at \(fiat.rate) (\(fiat.source))")),
                at: 1
            )
        }
        if let orderId = request.orderId { rows.append(("Order", WebFragments.escape(orderId))) }
        if let label = request.label { rows.append(("Label", WebFragments.escape(label))) }
        let payments = request.payments.map { payment in
            "<tr><td><code>\(WebFragments.escape(payment.txid))</code></td><td class=\"amount\">\(payment.sat)</td>"
                + "<td>\(payment.confirmations(tip: tipHeight))</td><td>\(payment.state.rawValue)"
                + (payment.replacedBy.map { " by <code>\(WebFragments.escape($0))</code>" } ?? "") + "</td></tr>"
        }
        let table =
            payments.isEmpty
            ? WebFragments.empty("No payment yet.")
            : "<table><thead><tr><th>Payment</th><th>Sat</th><th>Confirmations</th><th>State</th></tr></thead>"
                + "<tbody>\(payments.joined())</tbody></table>"
        return #"<h3>Request <code>\#(id)</code></h3><div class="request-page">"#
            + #"<img id="request-qr" src="/ui/requests/\#(id)/qr.png" width="240" height="240" alt="QR code of \#(WebFragments.escape(uri))">"#
            + "<dl>" + rows.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined()
            + #"<dt>QR code</dt><dd><a href="/ui/requests/\#(id)/qr.png?form=uppercase">uppercase form</a> "#
            + "(a smaller code for the same payment)</dd></dl></div>" + table
    }

    /// The request's QR code: the exact URI, or (`uppercase`) its uppercase form, in a smaller code.
    static func qr(_ request: PaymentRequest, uppercase: Bool = false) throws -> QRCode {
        let uri = RequestURI.make(request)
        return uppercase ? try QRCode(RequestURI.uppercase(uri), segmented: true) : try QRCode(uri)
    }
}
