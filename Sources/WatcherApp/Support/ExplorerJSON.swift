import Foundation
import WatcherCore
import WatcherEngine
import WatcherJSON

/// The JSON shapes scripts rely on; the same field names as `watcher probe`.
enum ExplorerJSON {
    static func time(_ date: Date) -> JSONValue { .isoTime(date) }

    static func block(_ header: BlockHeader) -> JSONValue { header.json }

    /// An account (the definition `/api/accounts` shares).
    static func account(address: String, label: String?, summary: AddressSummary?, fiat: [PriceQuote]) -> JSONValue {
        AccountJSON.account(address: address, label: label, summary: summary, fiat: fiat)
    }

    static func fiatText(_ sats: Int64, _ price: Decimal) -> String { AccountJSON.fiatText(sats, price) }

    static func price(_ quote: PriceQuote) -> JSONValue { quote.json }

    /// "5 minutes ago", "in 2 hours".
    static func relative(_ date: Date, now: Date = Date()) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        let magnitude = abs(seconds)
        let text: String
        switch magnitude {
        case ..<60: text = "\(magnitude) second\(magnitude == 1 ? "" : "s")"
        case ..<3600: text = "\(magnitude / 60) minute\(magnitude / 60 == 1 ? "" : "s")"
        case ..<86_400: text = "\(magnitude / 3600) hour\(magnitude / 3600 == 1 ? "" : "s")"
        default: text = "\(magnitude / 86_400) day\(magnitude / 86_400 == 1 ? "" : "s")"
        }
        return seconds >= 0 ? "\(text) ago" : "in \(text)"
    }

    /// Left-aligned columns.
    static func table(_ rows: [[String]]) -> String {
        TextTable.render(rows).map { line in
            String(line.reversed().drop(while: { $0 == " " }).reversed())
        }.joined(separator: "\n")
    }
}
