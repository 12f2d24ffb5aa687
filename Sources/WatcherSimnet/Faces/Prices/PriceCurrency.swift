/// The fiat currencies the simnet quotes Bitcoin in.
public enum PriceCurrency: String, Sendable, Hashable, CaseIterable, Codable {
    /// US dollar.
    case usd = "USD"
    /// Pound sterling.
    case gbp = "GBP"
    /// Euro.
    case eur = "EUR"

    /// CoinDesk's HTML-entity symbol.
    var htmlSymbol: String {
        switch self {
        case .usd: "&#36;"
        case .gbp: "&pound;"
        case .eur: "&euro;"
        }
    }

    /// CoinDesk's description.
    var longName: String {
        switch self {
        case .usd: "United States Dollar"
        case .gbp: "British Pound Sterling"
        case .eur: "Euro"
        }
    }

    /// Parses a currency code in any case.
    public init?(code: some StringProtocol) {
        self.init(rawValue: code.uppercased())
    }
}
