import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// A wallet transaction's amount is its effect on the whole wallet, whichever of its addresses one commit read.
struct WalletAmountTests {
    static func state(_ address: String, _ txs: [AddressState.TrackedTx]) -> AddressState {
        var state = AddressState(chain: "btc", address: address)
        state.wallet = WalletAddressRef(wallet: "shop", branch: .receive, index: 0)
        for tx in txs { state.txs[tx.txid] = tx }
        return state
    }

    static func tracked(_ txid: String, _ deltaSat: Int64, height: Int? = nil) -> AddressState.TrackedTx {
        AddressState.TrackedTx(txid: txid, blockHeight: height, blockHash: height.map { "b\($0)" }, deltaSat: deltaSat)
    }

    @Test func aWholeTransactionCountsEveryAddressOfTheWalletAndNothingElse() {
        let tx = ChainTransaction(
            txid: "spend",
            blockHeight: nil,
            blockHash: nil,
            time: nil,
            feeSat: 500,
            inputs: [TxEndpoint(address: "receive0", valueSat: 80_000), TxEndpoint(address: nil, valueSat: 0)],
            outputs: [
                TxEndpoint(address: "outside", valueSat: 30_000), TxEndpoint(address: "change0", valueSat: 49_500),
            ]
        )
        #expect(WalletLedger.amount(of: tx, addresses: ["receive0", "change0", "receive1"]) == -30_500)
        #expect(WalletLedger.amount(of: tx, addresses: ["receive0"]) == -80_000)
        #expect(WalletLedger.amount(of: tx, addresses: []) == 0)
    }

    /// The race a poll has: the change address was read just before the spend reached the provider, so this commit
    /// saw only the spend; the step's amount is the whole transaction's, not the commit's -80,000.
    @Test func theFirstStepTakesTheWholeTransactionOverWhatTheCommitRead() throws {
        var change = WalletLedger.Change()
        change.steps = [BalanceStep(txid: "spend", kind: .unconfirmed, amountSat: -80_000)]
        let addresses = [Self.state("receive0", [Self.tracked("spend", -80_000)]), Self.state("change0", [])]
        let amounts = WalletLedger.amounts(
            of: change.steps,
            addresses: addresses,
            before: [:],
            whole: ["spend": -30_500]
        )
        #expect(amounts == ["spend": -30_500])
        let (_, events) = WalletLedger.apply(
            WalletState(chain: "btc", wallet: "shop", descriptor: "d"),
            change,
            addresses: addresses,
            amounts: amounts,
            context: WalletLedgerTests.context
        )
        let data = try #require(events.first.map { try JSONValue.parse($0.body)["data"] })
        #expect(data?["amountSat"] == .number("-30500"))
    }

    /// The block confirms the spend between two reads: this commit read it confirmed at one address, the other
    /// address still holds it unconfirmed from an earlier commit; the confirmed step counts both.
    @Test func aLaterStepCountsEveryAddressHoldingTheTransaction() {
        let steps = [BalanceStep(txid: "spend", kind: .confirmed, blockHeight: 7, blockHash: "b7", amountSat: -80_000)]
        let addresses = [
            Self.state("receive0", [Self.tracked("spend", -80_000, height: 7)]),
            Self.state("change0", [Self.tracked("spend", 49_500)]),
            Self.state("receive1", [Self.tracked("other", 1_000)]),
        ]
        #expect(WalletLedger.amounts(of: steps, addresses: addresses, before: [:], whole: [:]) == ["spend": -30_500])
    }

    /// A replacement leaves the commit's address without the transaction: its amount there is the one before.
    @Test func aRemovedTransactionCountsWhatTheAddressHeldBefore() {
        let steps = [BalanceStep(txid: "spend", kind: .replaced, amountSat: -80_000)]
        let addresses = [Self.state("receive0", []), Self.state("change0", [Self.tracked("spend", 49_500)])]
        let before = ["receive0": Self.state("receive0", [Self.tracked("spend", -80_000)])]
        #expect(WalletLedger.amounts(of: steps, addresses: addresses, before: before, whole: [:]) == ["spend": -30_500])
    }
}
