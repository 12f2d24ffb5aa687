import Testing
import WatcherCore
import WatcherSimnet

/// The contract every ``ChainProvider`` passes, run against the simnet over loopback HTTP with `#expect`s:
/// answers agree with the simnet's truth, errors map to the right ``ProviderError`` under injected faults,
/// and nothing crashes on malformed, truncated or wrong-shaped bodies.
///
/// Call it from a test of your adapter, building the adapter from the simnet's base URL and the transport
/// the contract hands you:
/// ```swift
/// @Test func contract() async throws {
///     try await ChainProviderContract.run { baseURL, http in
///         MyProvider(id: "mine", baseURL: baseURL, http: http)
///     }
/// }
/// ```
/// Only the operations in the provider's ``ChainProvider/capabilities`` are compared; the others must throw
/// ``ProviderError/unsupported(provider:operation:)``. See `docs/writing-a-provider.md`.
public enum ChainProviderContract {
    /// Builds the adapter under test for a base URL and a transport.
    public typealias Factory = @Sendable (_ baseURL: String, _ http: any HTTPFetching) throws -> any ChainProvider

    /// Runs the whole contract: ``agreement(sourceLocation:make:)``, ``failures(sourceLocation:make:)``, for
    /// providers with block pages ``blockPaging(sourceLocation:make:)``, and for providers that name spenders
    /// ``spenders(sourceLocation:make:)``.
    public static func run(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory) async throws {
        try await agreement(sourceLocation: sourceLocation, make: make)
        try await failures(sourceLocation: sourceLocation, make: make)
        try await blockPaging(sourceLocation: sourceLocation, make: make)
        try await spenders(sourceLocation: sourceLocation, make: make)
    }

    /// Answers agree with the simnet's truth: tip, blocks, block pages, address summaries and batches,
    /// histories (newest first, `limit`, `after`), transactions, a mempool payment and its confirmation, a reorg, the
    /// next-block fee rate (``ChainProvider/feeRate(blocks:)``) as the simnet is set to it.
    public static func agreement(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory)
        async throws
    {
        try await ContractHarness.run { harness in
            let provider = try make(harness.baseURL, harness.transport)
            try await ChainAgreement(provider: provider, harness: harness, sourceLocation: sourceLocation).run()
        }
    }

    /// Every declared operation maps faults, rate limits, oversized bodies and dead ports to the right
    /// ``ProviderError`` (see ``FailureSweep``).
    public static func failures(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory) async throws
    {
        try await ContractHarness.run { harness in
            let truth = await ChainTruth(harness.simnet)
            let addresses = truth.busiestAddresses.map(\.address)
            let height = truth.tip.height - 1
            let txid = truth.chain.block(height: height)?.txids.last ?? truth.chain.tip.txids[0]
            let sweep = FailureSweep(harness: harness, sourceLocation: sourceLocation) { baseURL, http in
                let provider = try make(baseURL, http)
                let operations = ProviderOperation.chain(
                    provider,
                    height: height,
                    address: addresses[0],
                    otherAddress: addresses[1],
                    txid: txid
                )
                return (provider.id, operations)
            }
            try await sweep.run()
        }
    }

    /// A block of more than 1000 transactions comes back in two pages of Blockbook's fixed size, each with the
    /// block's txids in order. Skipped for providers without ``ChainCapabilities/blockTransactions``.
    public static func blockPaging(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory)
        async throws
    {
        let configuration = SimnetConfiguration(seed: 99, txsPerBlock: 1_003)
        try await ContractHarness.run(configuration) { harness in
            let provider = try make(harness.baseURL, harness.transport)
            guard provider.capabilities.contains(.blockTransactions) else { return }
            var block = await harness.simnet.chain().tip
            // The wallet's spendable outputs double each block; a few blocks fill one past 1000.
            for _ in 0..<8 where block.txCount <= 1_000 {
                try await harness.simnet.mine(count: 1)
                block = await harness.simnet.chain().tip
            }
            #expect(block.txCount > 1_000, "the simnet could not fill a block", sourceLocation: sourceLocation)
            let first = try await provider.blockTransactions(.hash(block.hash), page: 1)
            let second = try await provider.blockTransactions(.hash(block.hash), page: 2)
            #expect(
                first.totalPages == 2 && second.totalPages == 2,
                "two pages for \(block.txCount) txs",
                sourceLocation: sourceLocation
            )
            let txids = (first.transactions + second.transactions).map(\.txid)
            #expect(
                txids == block.txids,
                "both pages together hold the block's txids in order",
                sourceLocation: sourceLocation
            )
            let past = try await provider.blockTransactions(.hash(block.hash), page: 3)
            #expect(past.transactions.isEmpty, "page 3 of 2 is empty", sourceLocation: sourceLocation)
        }
    }
}
