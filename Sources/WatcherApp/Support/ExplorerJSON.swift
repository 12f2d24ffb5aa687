import Foundation
import WatcherCore
import WatcherEngine

/// The JSON shapes scripts rely on; the same field names as `watcher probe`.
enum ExplorerJSON {
    static func time(_ date: Date) -> JSONValue {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return .string(formatter.string(from: date))
    }

    static func block(_ header: BlockHeader) -> JSONValue {
        .object([
            .init("hash", .string(header.hash)),
            .init("height", .number("\(header.height)")),
            .init("time", time(header.time)),
            .init("merkleRoot", .string(header.merkleRoot)),
            .init("nonce", .number("\(header.nonce)")),
            .init("txCount", .number("\(header.txCount)")),
            .init("previousHash", header.previousHash.map(JSONValue.string) ?? .null),
        ])
    }

    static func int(_ value: (some BinaryInteger)?) -> JSONValue { value.map { .number("\($0)") } ?? .null }

    static func account(address: String, label: String?, summary: AddressSummary?, fiat: [PriceQuote]) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("address", .string(address)),
            .init("label", label.map(JSONValue.string) ?? .null),
            .init("balanceSat", int(summary?.balanceSat)),
            .init("totalReceivedSat", int(summary?.totalReceivedSat)),
            .init("totalSentSat", int(summary?.totalSentSat)),
            .init("txCount", int(summary?.txCount)),
            .init("unconfirmedBalanceSat", int(summary?.unconfirmedBalanceSat)),
            .init("unconfirmedTxCount", int(summary?.unconfirmedTxCount)),
        ]
        if let balance = summary?.balanceSat {
            members.append(.init("balanceBtc", .string(Satoshi.btc(balance))))
            members.append(.init("fiat", fiatValues(balance, fiat)))
        }
        return .object(members)
    }

    static func fiatValues(_ sats: Int64, _ prices: [PriceQuote]) -> JSONValue {
        .object(
            prices.sorted { $0.currency < $1.currency }.map { .init($0.currency, .string(fiatText(sats, $0.price))) }
        )
    }

    static func fiatText(_ sats: Int64, _ price: Decimal) -> String {
        var value = Decimal(sats) / Decimal(100_000_000) * price
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .bankers)
        return "\(rounded)"
    }

    static func price(_ quote: PriceQuote) -> JSONValue {
        .object([
            .init("currency", .string(quote.currency)),
            .init("price", .string("\(quote.price)")),
            .init("time", time(quote.time)),
            .init("provider", .string(quote.provider)),
        ])
    }

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
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
