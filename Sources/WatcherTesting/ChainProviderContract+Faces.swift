import Testing
import WatcherCore
import WatcherSimnet

extension ChainProviderContract {
    /// ``agreement(sourceLocation:make:)`` for an adapter that talks to a face of the simnet other than HTTP (its
    /// Electrum port): the simnet runs with `configure` applied to the contract's chain, and `make` builds the
    /// adapter from the running simnet. With `mempoolInAnyOrder`, the unconfirmed entries of a history may come in
    /// the provider's own order (an Electrum server sorts them by txid, not by arrival).
    ///
    /// ```swift
    /// try await ChainProviderContract.agreement(configure: { $0.electrumPort = 0 }) { simnet in
    ///     try makeProvider(port: simnet.electrumPort!)
    /// }
    /// ```
    public static func agreement(
        sourceLocation: SourceLocation = #_sourceLocation,
        mempoolInAnyOrder: Bool = false,
        configure: (inout SimnetConfiguration) -> Void,
        make: @escaping @Sendable (Simnet) throws -> any ChainProvider
    ) async throws {
        var configuration = ContractHarness.defaultConfiguration
        configure(&configuration)
        try await ContractHarness.run(configuration) { harness in
            let provider = try make(harness.simnet)
            var agreement = ChainAgreement(provider: provider, harness: harness, sourceLocation: sourceLocation)
            agreement.mempoolInAnyOrder = mempoolInAnyOrder
            try await agreement.run()
        }
    }
}
