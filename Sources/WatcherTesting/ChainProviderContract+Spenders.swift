import Testing
import WatcherCore
import WatcherSimnet

extension ChainProviderContract {
    /// ``ChainCapabilities/spenders``: a payment's input names the payment as its spender, then its replacement
    /// (`POST /control/replace`); an output nothing spends is unspent; once the replacement is evicted
    /// (`POST /control/evict`) the input is unspent again, and the replacement's own outputs are
    /// ``OutputSpend/parentMissing`` or left out (a node cannot tell a gone transaction from a spent output).
    /// Skipped for providers without the capability.
    public static func spenders(sourceLocation: SourceLocation = #_sourceLocation, make: @escaping Factory)
        async throws
    {
        try await ContractHarness.run { harness in
            let provider = try make(harness.baseURL, harness.transport)
            guard provider.capabilities.contains(.spenders) else { return }
            let simnet = harness.simnet
            let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
            let payment = try await simnet.pay(to: payee, amountSat: 40_000)
            let input = try #require(
                await simnet.chain().transaction(payment)?.inputs.first,
                sourceLocation: sourceLocation
            )
            let parent = input.prevout.txid
            let vout = input.prevout.vout

            var answer = try await provider.spends(of: parent, outputs: [vout])
            #expect(
                answer == [vout: .spent(by: payment)],
                "the payment spends its input",
                sourceLocation: sourceLocation
            )

            let replacement = try await simnet.replace(payment)
            answer = try await provider.spends(of: parent, outputs: [vout])
            #expect(
                answer == [vout: .spent(by: replacement)],
                "the replacement spends the input now",
                sourceLocation: sourceLocation
            )
            answer = try await provider.spends(of: replacement, outputs: [0])
            #expect(answer == [0: .unspent], "nothing spends the replacement's output", sourceLocation: sourceLocation)

            try await simnet.evict(replacement)
            answer = try await provider.spends(of: parent, outputs: [vout])
            #expect(
                answer == [vout: .unspent],
                "the evicted replacement's input is unspent",
                sourceLocation: sourceLocation
            )
            answer = try await provider.spends(of: replacement, outputs: [0])
            #expect(
                answer == [:] || answer == [0: .parentMissing],
                "the evicted replacement's output is gone or unknown, got \(answer)",
                sourceLocation: sourceLocation
            )
        }
    }
}
