import Foundation
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherStorage

/// The web UI's HTML, rendered on the server: each panel is a fragment the page loads again when the event
/// stream says something changed. Every value from the store or a provider is escaped.
enum WebFragments {
    /// The event types the Events filter offers.
    static let eventTypes = [
        "block.new", "block.reorged", "address.balance.changed", "address.tx.unconfirmed", "address.tx.confirmed",
        "address.tx.confirmations", "address.tx.replaced", "address.tx.reverted", "tx.confirmations", "tx.reverted",
        "wallet.balance.changed", "price.updated", "price.change", "price.threshold.crossed",
    ]

    /// The most accounts the Accounts tab lists (a watcher may follow 100,000; the API lists them all).
    static let shownAccounts = 500

    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    static func time(_ date: Date) -> String {
        let iso = JSONValue.isoTime(date).stringValue ?? ""
        let shown = iso.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
        return #"<time datetime="\#(iso)">\#(shown)</time>"#
    }

    static func btc(_ sats: Int64?) -> String { sats.map { "\(Satoshi.btc($0)) BTC" } ?? "pending" }

    static func empty(_ text: String) -> String { #"<p class="empty">\#(escape(text))</p>"# }

    static func error(_ text: String) -> String { #"<p class="error" role="alert">\#(escape(text))</p>"# }

    /// Label and value rows.
    static func list(_ rows: [(String, String, String)]) -> String {
        "<dl>"
            + rows.map { id, label, value in #"<dt>\#(label)</dt><dd id="\#(id)">\#(value)</dd>"# }.joined()
            + "</dl>"
    }

    static func blocks(_ headers: [BlockHeader]) -> String {
        guard !headers.isEmpty else { return empty("No blocks stored yet.") }
        let rows = headers.map { header in
            #"<tr class="block-row" tabindex="0" data-block="\#(header.height)"><td>\#(header.height)</td>"#
                + "<td>\(time(header.time))</td></tr>"
        }
        return #"<table id="blocks-table"><thead><tr><th>Height</th><th>Time</th></tr></thead><tbody>"#
            + rows.joined() + "</tbody></table>"
    }

    static func block(_ header: BlockHeader) -> String {
        #"<h2>Block \#(header.height)</h2>"#
            + list([
                ("block-hash", "Hash", #"<code>\#(escape(header.hash))</code>"#),
                ("block-height", "Height", "\(header.height)"),
                ("block-time", "Time", time(header.time)),
                ("block-merkle-root", "Merkle root", #"<code>\#(escape(header.merkleRoot))</code>"#),
                ("block-tx-count", "Transactions", header.txCount.map(String.init) ?? "unknown"),
                ("block-nonce", "Nonce", "\(header.nonce)"),
            ])
    }

    static func accounts(_ views: [StatusData.AccountView]) -> String {
        guard !views.isEmpty else { return empty("No followed accounts. Add one with Add account.") }
        let currencies = Set(views.first?.prices.map(\.currency) ?? []).sorted()
        let head = ["Address", "Label", "Balance (BTC)"] + currencies + [""]
        let rows = views.prefix(shownAccounts).map { view in
            let address = escape(view.followed.address)
            let balance = view.summary?.balanceSat
            var cells = [
                #"<td class="address"><code>\#(address)</code></td>"#,
                "<td>\(escape(view.followed.label ?? ""))</td>",
                balance.map { #"<td class="balance">\#(Satoshi.btc($0))</td>"# }
                    ?? #"<td class="balance" data-pending="1">pending</td>"#,
            ]
            for currency in currencies {
                let price = view.prices.first { $0.currency == currency }?.price
                let value = balance.flatMap { sats in price.map { AccountJSON.fiatText(sats, $0) } }
                cells.append(#"<td class="fiat" data-currency="\#(currency)">\#(value ?? "-")</td>"#)
            }
            if view.followed.watch == FollowedAccount.accountsWatch {
                cells.append(
                    #"<td><button type="button" class="remove" data-address="\#(address)">Remove</button></td>"#
                )
            } else {
                cells.append(#"<td class="muted">config watch \#(escape(view.followed.watch))</td>"#)
            }
            return #"<tr class="account-row" tabindex="0" data-address="\#(address)">"# + cells.joined() + "</tr>"
        }
        let more =
            views.count > shownAccounts
            ? #"<p class="muted">The first \#(shownAccounts) of \#(views.count); all are in /api/accounts.</p>"# : ""
        return #"<table id="accounts-table"><thead><tr>"# + head.map { "<th>\($0)</th>" }.joined()
            + "</tr></thead><tbody>" + rows.joined() + "</tbody></table>" + more
    }

    static func account(_ detail: StatusData.AccountDetail) -> String {
        let summary = detail.view.summary
        var html =
            "<h2>Account</h2>"
            + list([
                ("account-address", "Address", #"<code>\#(escape(detail.view.followed.address))</code>"#),
                ("account-label", "Label", escape(detail.view.followed.label ?? "-")),
                ("account-tx-count", "Transactions", summary?.txCount.map { "\($0)" } ?? "pending"),
                ("account-total-sent", "Total sent", btc(summary?.totalSentSat)),
                ("account-total-received", "Total received", btc(summary?.totalReceivedSat)),
                ("account-balance", "Balance", btc(summary?.balanceSat)),
            ])
        if summary == nil { html += #"<p class="muted" data-pending="1">Waiting for the first poll…</p>"# }
        html += "<h3>Recent transactions</h3>"
        guard !detail.txs.isEmpty else { return html + empty("No transactions known yet.") }
        let rows = detail.txs.prefix(25).map { tx in
            #"<tr class="tx-row"><td><code>\#(escape(tx.txid))</code></td>"#
                + "<td>\(tx.blockHeight.map { "\($0)" } ?? "mempool")</td>"
                + #"<td class="amount">\#(Satoshi.btc(tx.deltaSat))</td>"#
                + #"<td class="confirmations">\#(detail.confirmations(tx))</td></tr>"#
        }
        return html
            + #"<table id="account-txs"><thead><tr><th>Transaction</th><th>Block</th><th>Amount (BTC)</th>"#
            + "<th>Confirmations</th></tr></thead><tbody>" + rows.joined() + "</tbody></table>"
    }

    static func prices(_ quotes: [PriceQuote]) -> String {
        guard !quotes.isEmpty else { return empty("No prices yet.") }
        let rows = quotes.map { quote in
            #"<tr class="price-row" data-currency="\#(escape(quote.currency))"><td>\#(escape(quote.currency))</td>"#
                + #"<td class="price">\#(quote.price)</td><td>\#(time(quote.time))</td>"#
                + "<td>\(escape(quote.provider))</td></tr>"
        }
        return #"<table id="prices-table"><thead><tr><th>Currency</th><th>Price (1 BTC)</th><th>Time</th>"#
            + "<th>Source</th></tr></thead><tbody>" + rows.joined() + "</tbody></table>"
    }

    static func events(_ events: [StatusData.EventView]) -> String {
        guard !events.isEmpty else { return empty("No events.") }
        let rows = events.map { event in
            let time = event.envelope["time"]?.stringValue ?? ""
            let subject = event.envelope["subject"]?.stringValue ?? ""
            return #"<tr class="event-row" data-seq="\#(event.seq)"><td>\#(event.seq)</td><td>\#(escape(time))</td>"#
                + #"<td class="type">\#(escape(event.type))</td><td><code>\#(escape(subject))</code></td></tr>"#
        }
        return #"<table id="events-table"><thead><tr><th>#</th><th>Time</th><th>Type</th><th>Subject</th></tr>"#
            + "</thead><tbody>" + rows.joined() + "</tbody></table>"
    }

    static func wallets(_ wallets: [WalletViews.Wallet]) -> String {
        guard !wallets.isEmpty else { return empty("No wallets: add a watch of type \"wallet\" to the config.") }
        let rows = wallets.map { wallet in
            let id = escape(wallet.watch.id)
            let state = wallet.state
            let balances = wallet.balances
            return #"<tr class="wallet-row" tabindex="0" data-wallet="\#(id)"><td>\#(id)</td>"#
                + "<td>\(escape(wallet.watch.label ?? ""))</td>"
                + (balances.map { #"<td class="balance">\#(Satoshi.btc($0.confirmed))</td>"# }
                    ?? #"<td class="balance" data-pending="1">\#(escape(wallet.pendingText))</td>"#)
                + #"<td class="balance">\#(balances.map { Satoshi.btc($0.unconfirmed) } ?? "-")</td>"#
                + "<td>\(wallet.addresses.count)</td>"
                + "<td>\(escape(state?.receive.progress ?? "not scanned yet"))</td></tr>"
        }
        return #"<table id="wallets-table"><thead><tr><th>Wallet</th><th>Label</th><th>Balance (BTC)</th>"#
            + "<th>Unconfirmed (BTC)</th><th>Used addresses</th><th>Receive</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table>"
    }

    static func window(_ window: WalletState.Window?) -> String {
        guard let window else { return "not scanned yet" }
        let parts = [
            window.progress,
            window.lastIssued.map { "last issued \($0)" },
            window.derivedUpTo.map { "followed up to \($0)" },
        ]
        return escape(parts.compactMap { $0 }.joined(separator: ", "))
    }

    static func wallet(_ wallet: WalletViews.Wallet) -> String {
        let id = escape(wallet.watch.id)
        let balances = wallet.balances
        var rows = [
            ("wallet-id", "Wallet", id),
            ("wallet-label", "Label", escape(wallet.watch.label ?? "-")),
            ("wallet-descriptor", "Descriptor", #"<code>\#(escape(wallet.watch.wallet?.description ?? ""))</code>"#),
            ("wallet-gap", "Gap", "\(wallet.watch.gap)"),
            ("wallet-balance", "Balance", balances.map { btc($0.confirmed) } ?? escape(wallet.pendingText)),
            ("wallet-unconfirmed", "Unconfirmed", balances.map { btc($0.unconfirmed) } ?? "pending"),
            ("wallet-receive", "Receive", window(wallet.state?.receive)),
        ]
        if wallet.watch.wallet?.change != nil {
            rows.append(("wallet-change", "Change", window(wallet.state?.change)))
        }
        var html = "<h2>Wallet</h2>" + list(rows)
        html +=
            #"<div class="card"><button type="button" id="next-address" data-wallet="\#(id)">Next address</button>"#
            + #"<label>Label <input id="next-label" placeholder="Optional"></label>"#
            + #"<p id="next-result" hidden></p><p id="next-error" class="error" role="alert" hidden></p></div>"#
        if wallet.state == nil { html += #"<p class="muted" data-pending="1">Waiting for the first round…</p>"# }
        let labels = Dictionary(wallet.issued.map { ($0.address, $0.label) }) { first, _ in first }
        let used = wallet.addresses.sorted {
            ($0.wallet?.branch.number ?? 0, $0.wallet?.index ?? 0) < (
                $1.wallet?.branch.number ?? 0, $1.wallet?.index ?? 0
            )
        }
        html += "<h3>Used addresses</h3>"
        if used.isEmpty {
            html += empty("No payments yet.")
        } else {
            html +=
                #"<table id="wallet-addresses"><thead><tr><th>Branch</th><th>Index</th><th>Address</th>"#
                + "<th>Label</th><th>Balance (BTC)</th></tr></thead><tbody>"
                + used.map { state in
                    #"<tr class="wallet-address-row"><td>\#(state.wallet?.branch.rawValue ?? "")</td>"#
                        + "<td>\(state.wallet?.index ?? 0)</td>"
                        + #"<td><code>\#(escape(state.address))</code></td>"#
                        + "<td>\(escape((labels[state.address] ?? nil) ?? ""))</td>"
                        + #"<td class="balance">\#(state.summary?.balanceSat.map(Satoshi.btc) ?? "pending")</td></tr>"#
                }.joined() + "</tbody></table>"
        }
        html += "<h3>Recent transactions</h3>"
        let txs = WalletViews.transactions(wallet)
        guard !txs.isEmpty else { return html + empty("No transactions known yet.") }
        return html
            + #"<table id="wallet-txs"><thead><tr><th>Transaction</th><th>Block</th><th>Amount (BTC)</th>"#
            + "<th>Confirmations</th></tr></thead><tbody>"
            + txs.prefix(25).map { tx in
                let height = tx["blockHeight"].flatMap { $0 == .null ? nil : $0.serialized() } ?? "mempool"
                return #"<tr class="tx-row"><td><code>\#(escape(tx["txid"]?.stringValue ?? ""))</code></td>"#
                    + "<td>\(height)</td>"
                    + #"<td class="amount">\#(escape(tx["deltaBtc"]?.stringValue ?? ""))</td>"#
                    + #"<td class="confirmations">\#(tx["confirmations"]?.serialized() ?? "0")</td></tr>"#
            }.joined() + "</tbody></table>"
    }
}
