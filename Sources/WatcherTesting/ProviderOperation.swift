import Testing
import WatcherCore

/// One call of a provider, named for messages: the unit the failure sweeps run.
public struct ProviderOperation: Sendable {
    /// E.g. `tip()` or `address(bc1q…)`.
    public var name: String
    /// Makes the call and discards the result.
    public var run: @Sendable () async throws -> Void

    /// Creates an operation.
    public init(_ name: String, run: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.run = run
    }

    /// Every operation a chain provider declares in its capabilities, with sample arguments.
    public static func chain(
        _ provider: any ChainProvider,
        height: Int,
        address: String,
        otherAddress: String,
        historyAddress: String? = nil,
        txid: String
    ) -> [ProviderOperation] {
        let historyAddress = historyAddress ?? address
        var operations: [ProviderOperation] = []
        let capabilities = provider.capabilities
        if capabilities.contains(.status) { operations.append(.init("health()") { _ = try await provider.health() }) }
        if capabilities.contains(.tip) { operations.append(.init("tip()") { _ = try await provider.tip() }) }
        if capabilities.contains(.block) {
            operations.append(.init("block(\(height))") { _ = try await provider.block(.height(height)) })
        }
        if capabilities.contains(.headerBatch) {
            operations.append(
                .init("headers(from: \(height), count: 2)") {
                    _ = try await provider.headers(from: height, count: 2)
                }
            )
        }
        if capabilities.contains(.blockTransactions) {
            operations.append(
                .init("blockTransactions(\(height), page: 1)") {
                    _ = try await provider.blockTransactions(.height(height), page: 1)
                }
            )
        }
        if capabilities.contains(.address) {
            operations.append(.init("address(\(address))") { _ = try await provider.address(address) })
        }
        if capabilities.contains(.addressBatch) {
            operations.append(.init("addresses([2])") { _ = try await provider.addresses([address, otherAddress]) })
        }
        if capabilities.contains(.addressTransactions) {
            operations.append(
                .init("addressTransactions(\(historyAddress))") {
                    _ = try await provider.addressTransactions(historyAddress, limit: 10, after: nil)
                }
            )
        }
        if capabilities.contains(.transaction) {
            operations.append(.init("transaction(\(txid.prefix(8))…)") { _ = try await provider.transaction(txid) })
        }
        if capabilities.contains(.feeEstimate) {
            operations.append(.init("feeRate(blocks: 1)") { _ = try await provider.feeRate(blocks: 1) })
        }
        if capabilities.contains(.spenders) {
            operations.append(
                .init("spends(of: \(txid.prefix(8))…, outputs: [0])") {
                    _ = try await provider.spends(of: txid, outputs: [0])
                }
            )
        }
        return operations
    }

    /// A price provider's one operation: quotes for USD, GBP and EUR.
    public static func price(_ provider: any PriceProvider) -> [ProviderOperation] {
        [.init("quotes(USD GBP EUR)") { _ = try await provider.quotes(for: ["USD", "GBP", "EUR"]) }]
    }

    /// Expects the call to throw a ``ProviderError`` that names `provider` and `matches`.
    public func expectFailure(
        provider: String,
        _ expected: String,
        allowSuccess: Bool = false,
        sourceLocation: SourceLocation,
        matches: (ProviderError) -> Bool
    ) async {
        do {
            try await run()
            if !allowSuccess {
                Issue.record("\(name): expected \(expected), but it succeeded", sourceLocation: sourceLocation)
            }
        } catch let error as ProviderError {
            #expect(matches(error), "\(name): expected \(expected), got \(error)", sourceLocation: sourceLocation)
            #expect(
                error.provider == provider,
                "\(name): the error names \(error.provider), not \(provider)",
                sourceLocation: sourceLocation
            )
        } catch {
            Issue.record(
                "\(name): expected \(expected), got \(type(of: error)): \(error)",
                sourceLocation: sourceLocation
            )
        }
    }
}

extension [ProviderOperation] {
    /// Runs every operation at once and expects each to throw a ``ProviderError`` that names `provider` and
    /// `matches`; operations for which `allowSuccess` is true may also succeed.
    public func expectFailures(
        provider: String,
        _ expected: String,
        sourceLocation: SourceLocation,
        allowSuccess: @Sendable (ProviderOperation) -> Bool = { _ in false },
        matches: @escaping @Sendable (ProviderError) -> Bool
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for operation in self {
                let allowed = allowSuccess(operation)
                group.addTask {
                    await operation.expectFailure(
                        provider: provider,
                        expected,
                        allowSuccess: allowed,
                        sourceLocation: sourceLocation,
                        matches: matches
                    )
                }
            }
        }
    }
}
