import Testing
import WatcherCore

/// The rules of ``FixtureContract/agreement(_:notFound:samples:sourceLocation:make:)``, checked on one provider.
struct FixtureRules {
    let provider: any ChainProvider
    let samples: FixtureContract.Samples
    let sourceLocation: SourceLocation
    /// Requests the fixture server has answered so far.
    let requestCount: @Sendable () -> Int

    func check() async throws {
        let capabilities = provider.capabilities
        if capabilities.contains(.tip) { try await tip() }
        if capabilities.contains(.block) { try await block() }
        if capabilities.contains(.address) { try await address() }
        if capabilities.contains(.addressBatch) { try await batch() }
        if capabilities.contains(.addressTransactions) { try await history() }
        if capabilities.contains(.transaction) { try await transaction() }
        await unsupported(capabilities)
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        #expect(condition, "\(provider.id): \(message())", sourceLocation: sourceLocation)
    }

    private func tip() async throws {
        let before = requestCount()
        let tip = try await provider.tip()
        let made = requestCount() - before
        expect(
            made == provider.requestsPerTip,
            "tip() made \(made) requests, but requestsPerTip says \(provider.requestsPerTip): the rate limiter counts that"
        )
        expect(tip.height >= 0, "tip height \(tip.height) is negative")
        expect(Self.isHash(tip.hash), "tip hash \(tip.hash) is not 64 lower-case hex digits")
    }

    private func block() async throws {
        let byHeight = try await provider.block(.height(samples.height))
        expect(byHeight.height == samples.height, "block(\(samples.height)) answered block \(byHeight.height)")
        expect(Self.isHash(byHeight.hash), "block hash \(byHeight.hash) is not 64 lower-case hex digits")
        expect(
            byHeight.txCount.map { $0 >= 1 } ?? true,
            "block \(byHeight.height) has \(byHeight.txCount ?? 0) transactions (unknown is nil, not 0)"
        )
        let byHash = try await provider.block(.hash(byHeight.hash))
        expect(byHash == byHeight, "the block by hash differs from the block by height")
        await expectNotFound("block(unknown hash)") { _ = try await provider.block(.hash(samples.unknownHash)) }
    }

    private func address() async throws {
        let summary = try await provider.address(samples.address)
        expect(summary.address == samples.address, "address(\(samples.address)) answered \(summary.address)")
        if let balance = summary.balanceSat, let received = summary.totalReceivedSat, let sent = summary.totalSentSat {
            expect(balance == received - sent, "balance \(balance) is not received \(received) - sent \(sent)")
        }
        for (name, value) in [("balance", summary.balanceSat), ("received", summary.totalReceivedSat)] {
            if let value { expect(value >= 0, "\(name) \(value) is negative") }
        }
        if let count = summary.txCount { expect(count >= 0, "tx count \(count) is negative") }
    }

    private func batch() async throws {
        let asked = [samples.otherAddress, samples.address, samples.otherAddress]
        let summaries = try await provider.addresses(asked)
        expect(
            Set(summaries.map(\.address)) == Set(asked),
            "addresses(\(asked)) answered \(summaries.map(\.address))"
        )
    }

    private func history() async throws {
        let address = samples.historyAddress
        let all = try await provider.addressTransactions(address, limit: 1_000, after: nil)
        expect(!all.isEmpty, "the history of \(address) is empty: give a sample with transactions")
        let txids = all.map(\.txid)
        expect(Set(txids).count == txids.count, "the history of \(address) repeats a txid")
        // Newest first: unconfirmed ones, then heights that never grow.
        let heights = all.map { $0.blockHeight ?? Int.max }
        expect(zip(heights, heights.dropFirst()).allSatisfy { $0 >= $1 }, "history not newest first: \(heights)")
        let one = try await provider.addressTransactions(address, limit: 1, after: nil)
        expect(one.count == min(1, all.count), "limit 1 answered \(one.count) transactions")
        if all.count >= 2 {
            let before = try await provider.addressTransactions(address, limit: 1_000, after: all[1].txid)
            expect(before.map(\.txid) == [all[0].txid], "after the second txid should leave only the first")
        }
    }

    private func transaction() async throws {
        let tx = try await provider.transaction(samples.txid)
        expect(tx.txid == samples.txid, "transaction(\(samples.txid)) answered \(tx.txid)")
        let endpoints = tx.inputs + tx.outputs
        expect(endpoints.allSatisfy { $0.valueSat >= 0 }, "a negative input or output value")
        if let fee = tx.feeSat, !tx.inputs.isEmpty, tx.inputs.allSatisfy({ $0.address != nil }) {
            let paid = tx.inputs.reduce(Int64(0)) { $0 + $1.valueSat }
            let spent = tx.outputs.reduce(Int64(0)) { $0 + $1.valueSat }
            expect(fee == paid - spent, "fee \(fee) is not inputs \(paid) - outputs \(spent)")
        }
        await expectNotFound("transaction(unknown)") { _ = try await provider.transaction(samples.unknownTxid) }
    }

    private func unsupported(_ capabilities: ChainCapabilities) async {
        let calls: [(ChainCapabilities, String, @Sendable () async throws -> Void)] = [
            (.tip, "tip()", { [provider] in _ = try await provider.tip() }),
            (.block, "block()", { [provider, samples] in _ = try await provider.block(.height(samples.height)) }),
            (
                .blockTransactions, "blockTransactions()",
                { [provider, samples] in _ = try await provider.blockTransactions(.height(samples.height), page: 1) }
            ),
            (.address, "address()", { [provider, samples] in _ = try await provider.address(samples.address) }),
            (
                .addressTransactions, "addressTransactions()",
                { [provider, samples] in
                    _ = try await provider.addressTransactions(samples.historyAddress, limit: 1, after: nil)
                }
            ),
            (
                .transaction, "transaction()",
                { [provider, samples] in _ = try await provider.transaction(samples.txid) }
            ),
            (.feeEstimate, "feeRate(blocks: 1)", { [provider] in _ = try await provider.feeRate(blocks: 1) }),
        ]
        for (capability, name, call) in calls where !capabilities.contains(capability) {
            do {
                try await call()
                expect(false, "\(name) is not declared, yet it answered")
            } catch ProviderError.unsupported(let id, _) {
                expect(id == provider.id, "\(name): unsupported names \(id)")
            } catch {
                expect(false, "\(name) is not declared: expected unsupported, got \(error)")
            }
        }
    }

    private func expectNotFound(_ name: String, _ call: () async throws -> Void) async {
        do {
            try await call()
            expect(false, "\(name) answered; expected notFound")
        } catch ProviderError.notFound(let id, _) {
            expect(id == provider.id, "\(name): notFound names \(id)")
        } catch {
            expect(false, "\(name): expected notFound, got \(error)")
        }
    }

    static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
