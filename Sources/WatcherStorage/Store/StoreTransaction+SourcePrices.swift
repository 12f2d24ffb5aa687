import WatcherCore

/// Each price provider's latest quote per currency, beside the latest price of the currency (`prices`): a wallet's
/// `requests.rate.sources` quotes a fiat request at the median of those providers' quotes.
extension StoreTransaction {
    /// The latest quotes in `currency` of the providers `providers` that have one, in the order given.
    public func sourcePrices(currency: String, providers: [String]) throws -> [PriceQuote] {
        guard let table = tables.sourcePrices else { return [] }
        return try providers.compactMap { provider in
            try value(PriceQuote.self, table, Keys.text(currency.uppercased(), provider))
        }
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Stores a quote as its provider's latest in its currency.
    public func putSourcePrice(_ quote: PriceQuote) throws {
        guard let table = tables.sourcePrices else { throw StorageError.writerStopped }
        try put(table, Keys.text(quote.currency.uppercased(), quote.provider), quote)
    }
}
