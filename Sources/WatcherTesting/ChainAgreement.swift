import Foundation
import Testing
import WatcherCore
import WatcherSimnet

/// The agreement half of ``ChainProviderContract``: each operation the provider declares, compared with the
/// simnet's truth (``ChainTruth``) through quiet chain growth, a mempool payment, its confirmation and a reorg, and
/// the next-block fee rate the simnet is set to.
/// Operations it does not declare must throw ``ProviderError/unsupported(provider:operation:)``.
struct ChainAgreement: Sendable {
    let provider: any ChainProvider
    let harness: ContractHarness
    let sourceLocation: SourceLocation
    /// Unconfirmed history entries may come in any order (the provider's own, kept consistent across calls): an
    /// Electrum server orders the mempool by txid, not by arrival.
    var mempoolInAnyOrder = false
    /// A mainnet address outside the simnet's wallet (BIP173's example P2WPKH).
    static let outsider = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

    var simnet: Simnet { harness.simnet }
    var has: ChainCapabilities { provider.capabilities }

    func run() async throws {
        try await unsupportedOperations()
        if has.contains(.status) {
            let health = try await provider.health()
            let tip = await simnet.tip()
            #expect(
                health.isHealthy,
                "health(): a synced simnet is healthy, got \(health)",
                sourceLocation: sourceLocation
            )
            #expect(
                health.bestHeight == nil || health.bestHeight == tip.height,
                "health(): bestHeight",
                sourceLocation: sourceLocation
            )
        }
        try await feeRates()
        try await tipAndBlocks()
        try await simnet.mine(count: 2)
        try await tipAndBlocks()
        try await addressSummaries(await ChainTruth(simnet))
        try await unspentBalances(await ChainTruth(simnet))
        try await histories()
        try await transactions()
        try await mempoolPayment()
        try await reorg()
    }

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        #expect(condition, "\(message())", sourceLocation: sourceLocation)
    }

    func unsupportedOperations() async throws {
        let tip = await simnet.tip()
        let address = Self.outsider
        let txid = String(repeating: "ab", count: 32)
        let all: [(ChainCapabilities, String, @Sendable () async throws -> Void)] = [
            (.tip, "tip", { _ = try await provider.tip() }),
            (.block, "block", { _ = try await provider.block(.height(tip.height)) }),
            (
                .blockTransactions, "blockTransactions",
                { _ = try await provider.blockTransactions(.height(tip.height), page: 1) }
            ),
            (.address, "address", { _ = try await provider.address(address) }),
            (
                .addressTransactions, "addressTransactions",
                { _ = try await provider.addressTransactions(address, limit: 1, after: nil) }
            ),
            (.transaction, "transaction", { _ = try await provider.transaction(txid) }),
            (.utxoScan, "unspentBalances", { _ = try await provider.unspentBalances([address]) }),
            (.headerBatch, "headers", { _ = try await provider.headers(from: tip.height - 1, count: 2) }),
            (.feeEstimate, "feeRate", { _ = try await provider.feeRate(blocks: 1) }),
        ]
        for (capability, name, call) in all where !has.contains(capability) {
            await ProviderOperation(name, run: call).expectFailure(
                provider: provider.id,
                "unsupported",
                sourceLocation: sourceLocation
            ) {
                if case .unsupported = $0 { true } else { false }
            }
        }
    }

    func tipAndBlocks() async throws {
        let truth = await ChainTruth(simnet)
        if has.contains(.tip) {
            let tip = try await provider.tip()
            check(tip == truth.tip, "tip(): \(tip) != truth \(truth.tip)")
        }
        if has.contains(.block) {
            for height in [truth.tip.height, truth.tip.height - 3] {
                guard let expected = truth.header(height: height) else { continue }
                expectHeader(try await provider.block(.height(height)), expected, "block(\(height))")
                expectHeader(try await provider.block(.hash(expected.hash)), expected, "block(hash of \(height))")
            }
            let missing = ProviderOperation("block(tip + 100)") {
                _ = try await provider.block(.height(truth.tip.height + 100))
            }
            await missing.expectFailure(provider: provider.id, "notFound", sourceLocation: sourceLocation) {
                if case .notFound = $0 { true } else { false }
            }
        }
        if has.contains(.headerBatch) {
            let from = truth.tip.height - 4
            let headers = try await provider.headers(from: from, count: 10)
            check(
                headers.map(\.height) == Array(from...truth.tip.height),
                "headers(from: tip - 4, count: 10): heights \(headers.map(\.height)), expected \(from)...\(truth.tip.height)"
            )
            for header in headers {
                guard let expected = truth.header(height: header.height) else { continue }
                expectHeader(header, expected, "headers() at \(header.height)")
            }
            let past = try await provider.headers(from: truth.tip.height + 1, count: 5)
            check(past.isEmpty, "headers(from: tip + 1): none past the tip, got \(past.map(\.height))")
        }
        if has.contains(.blockTransactions), let block = truth.chain.block(height: truth.tip.height - 1) {
            let page = try await provider.blockTransactions(.height(block.height), page: 1)
            check(
                page.totalPages == 1,
                "blockTransactions(): \(block.txCount) txs fit one page, got \(page.totalPages)"
            )
            check(page.transactions.map(\.txid) == block.txids, "blockTransactions(): txids differ from the block's")
            for transaction in page.transactions {
                guard let expected = truth.transaction(transaction.txid) else { continue }
                expectTransaction(transaction, expected, "blockTransactions() \(transaction.txid.prefix(8))")
            }
            let past = try await provider.blockTransactions(.height(block.height), page: 2)
            check(past.transactions.isEmpty, "blockTransactions(page: 2) of a one-page block must be empty")
        }
    }

    func addressSummaries(_ truth: ChainTruth) async throws {
        guard has.contains(.address) || has.contains(.addressBatch) else { return }
        let truths = truth.busiestAddresses
        if has.contains(.address) {
            for expected in truths.prefix(6) {
                expectSummary(try await provider.address(expected.address), expected, "address(\(expected.address))")
            }
        }
        if has.contains(.addressBatch) {
            let asked = truths.map(\.address).reversed() + [truths[0].address]
            let summaries = try await provider.addresses(Array(asked))
            check(Set(summaries.map(\.address)) == Set(asked), "addresses(): one summary per distinct address asked")
            for summary in summaries {
                guard let expected = truth.truth(of: summary.address) else { continue }
                expectSummary(summary, expected, "addresses() \(summary.address)")
            }
        }
    }

    func histories() async throws {
        guard has.contains(.addressTransactions) else { return }
        let truth = await ChainTruth(simnet)
        guard let busiest = truth.busiestAddresses.first else { return }
        var expected = truth.history(of: busiest.address)
        check(expected.count > 60, "the contract chain should give one address several pages of history")
        let limit = min(expected.count, 120)
        let all = try await provider.addressTransactions(busiest.address, limit: limit, after: nil)
        expected = adoptingMempoolOrder(expected, from: all)
        expectHistory(all, Array(expected.prefix(limit)), "addressTransactions(\(busiest.address), limit: \(limit))")
        if expected.count > 3 {
            let cut = try await provider.addressTransactions(busiest.address, limit: 50, after: expected[3].txid)
            check(
                cut.map(\.txid) == expected.prefix(3).map(\.txid),
                "addressTransactions(after: 4th): the 3 newer txids"
            )
            let short = try await provider.addressTransactions(busiest.address, limit: 2, after: nil)
            check(short.map(\.txid) == expected.prefix(2).map(\.txid), "addressTransactions(limit: 2): the 2 newest")
        }
    }

    func transactions() async throws {
        guard has.contains(.transaction) else { return }
        let truth = await ChainTruth(simnet)
        guard let block = truth.chain.block(height: truth.tip.height - 1) else { return }
        for txid in block.txids.prefix(4) + truth.chain.mempool.prefix(2) {
            guard let expected = truth.transaction(txid) else { continue }
            let transaction = try await provider.transaction(txid)
            expectTransaction(transaction, expected, "transaction(\(txid.prefix(8))…)")
            check(
                transaction.confirmations(tipHeight: truth.tip.height)
                    == expected.confirmations(tipHeight: truth.tip.height),
                "transaction(\(txid.prefix(8))…): confirmations from the tip"
            )
        }
        let unknown = ProviderOperation("transaction(unknown)") {
            _ = try await provider.transaction(String(repeating: "ab", count: 32))
        }
        await unknown.expectFailure(provider: provider.id, "notFound", sourceLocation: sourceLocation) {
            if case .notFound = $0 { true } else { false }
        }
    }

    /// A payment to an outside address: unconfirmed first, then confirmed by one block.
    func mempoolPayment() async throws {
        let txid = try await simnet.pay(to: Self.outsider, amountSat: 123_456)
        try await paymentState(txid, confirmed: false)
        try await simnet.mine(count: 1)
        try await paymentState(txid, confirmed: true)
    }

    private func paymentState(_ txid: String, confirmed: Bool) async throws {
        let truth = await ChainTruth(simnet)
        let label = confirmed ? "after a block" : "in the mempool"
        if let expected = truth.truth(of: Self.outsider) {
            if has.contains(.address) {
                expectSummary(try await provider.address(Self.outsider), expected, "address() \(label)")
            }
            if has.contains(.addressBatch) {
                let batch = try await provider.addresses([Self.outsider])
                check(batch.count == 1, "addresses([outsider]) \(label): one summary")
                if let summary = batch.first { expectSummary(summary, expected, "addresses() \(label)") }
            }
        }
        if has.contains(.addressTransactions) {
            let history = try await provider.addressTransactions(Self.outsider, limit: 10, after: nil)
            expectHistory(history, truth.history(of: Self.outsider), "addressTransactions(outsider) \(label)")
        }
        if has.contains(.transaction), let expected = truth.transaction(txid) {
            let transaction = try await provider.transaction(txid)
            expectTransaction(transaction, expected, "transaction(payment) \(label)")
            check(
                transaction.confirmations(tipHeight: truth.tip.height) == (confirmed ? 1 : 0),
                "payment confirmations \(label)"
            )
        }
    }

    func reorg() async throws {
        guard has.contains(.tip) || has.contains(.block) else { return }
        let replaced = try await simnet.reorg(depth: 2)
        try await tipAndBlocks()
        if has.contains(.block), let first = replaced.first {
            let header = try await provider.block(.height(first.height))
            check(header.hash == first.newHash, "block(\(first.height)) after a reorg: the new branch's hash")
        }
    }
}
