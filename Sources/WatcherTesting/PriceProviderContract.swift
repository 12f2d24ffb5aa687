import Foundation
import Testing
import WatcherCore
import WatcherSimnet

/// The contract every ``PriceProvider`` passes against the simnet's feeds: quotes equal the simnet's prices
/// exactly (as `Decimal`), carry a recent quote time and the provider id, currencies are matched in any case,
/// unknown currencies are left out, and failures map like ``FailureSweep`` says.
///
/// ```swift
/// try await PriceProviderContract.run { baseURL, http in
///     CoinDeskProvider(id: "cd", baseURL: baseURL, http: http, options: options)
/// }
/// ```
public enum PriceProviderContract {
    /// Builds the adapter under test for a base URL and a transport.
    public typealias Factory = @Sendable (_ baseURL: String, _ http: any HTTPFetching) throws -> any PriceProvider

    /// Prices every simnet feed writes exactly (at most two decimals).
    public static let samplePrices: [PriceCurrency: Decimal] = [
        .usd: Decimal(654_321) / 10, .gbp: Decimal(5_123_456) / 100, .eur: Decimal(60_001),
    ]

    /// Runs ``agreement(sourceLocation:make:)`` and ``failures(sourceLocation:make:)``.
    public static func run(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory) async throws {
        try await agreement(sourceLocation: sourceLocation, make: make)
        try await failures(sourceLocation: sourceLocation, make: make)
    }

    /// Quotes agree with the simnet's prices, before and after they change.
    public static func agreement(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory)
        async throws
    {
        try await ContractHarness.run { harness in
            let provider = try make(harness.baseURL, harness.transport)
            for code in ["USD", "GBP", "EUR"] {
                #expect(provider.currencies.contains(code), "currencies lacks \(code)", sourceLocation: sourceLocation)
            }
            await harness.simnet.setPrices(samplePrices)
            try await expectQuotes(provider, harness: harness, sourceLocation: sourceLocation)
            await harness.simnet.setPrices([.usd: 70_000, .gbp: Decimal(550_005) / 10, .eur: Decimal(6_499_999) / 100])
            try await expectQuotes(provider, harness: harness, sourceLocation: sourceLocation)

            let lower = try await provider.quotes(for: ["usd"])
            #expect(
                lower.map(\.currency) == ["USD"],
                "quotes(usd): one USD quote, got \(lower)",
                sourceLocation: sourceLocation
            )
            let mixed = try await provider.quotes(for: ["USD", "XYZ"])
            #expect(
                mixed.map(\.currency) == ["USD"],
                "quotes(USD XYZ): XYZ left out, got \(mixed)",
                sourceLocation: sourceLocation
            )
            do {
                let unknown = try await provider.quotes(for: ["XYZ"])
                #expect(unknown.isEmpty, "quotes(XYZ): nothing, got \(unknown)", sourceLocation: sourceLocation)
            } catch let error as ProviderError {
                guard case .notFound = error else {
                    Issue.record("quotes(XYZ): expected [] or notFound, got \(error)", sourceLocation: sourceLocation)
                    return
                }
            }
        }
    }

    /// Faults, rate limits, body caps and dead ports map to the right errors.
    public static func failures(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory) async throws
    {
        try await ContractHarness.run { harness in
            try await FailureSweep(harness: harness, sourceLocation: sourceLocation) { baseURL, http in
                let provider = try make(baseURL, http)
                return (provider.id, ProviderOperation.price(provider))
            }.run()
        }
    }

    private static func expectQuotes(
        _ provider: any PriceProvider,
        harness: ContractHarness,
        sourceLocation: SourceLocation
    ) async throws {
        let prices = await harness.simnet.prices()
        let quotes = try await provider.quotes(for: ["USD", "GBP", "EUR"])
        #expect(
            quotes.map(\.currency).sorted() == ["EUR", "GBP", "USD"],
            "one quote per currency",
            sourceLocation: sourceLocation
        )
        for quote in quotes {
            let expected = PriceCurrency(code: quote.currency).flatMap { prices[$0] }
            #expect(
                quote.price == expected,
                "\(quote.currency): \(quote.price) != simnet \(String(describing: expected))",
                sourceLocation: sourceLocation
            )
            #expect(
                quote.provider == provider.id,
                "\(quote.currency): provider \(quote.provider)",
                sourceLocation: sourceLocation
            )
            #expect(
                abs(quote.time.timeIntervalSinceNow) < 900,
                "\(quote.currency): quote time \(quote.time) is not recent",
                sourceLocation: sourceLocation
            )
        }
    }
}
