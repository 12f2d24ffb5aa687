import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// The zero-conf facts of `address.tx.unconfirmed` (fee rate, RBF signal, unconfirmed inputs), from the real
/// runtime against the simnet's Blockbook on the wall clock.
@Suite(.serialized)
struct ZeroConfTests {
    static let payer = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
    static let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    /// The simnet's own Blockbook view of `txid`: fee and vsize, read from the text.
    static func feeAndSize(_ simnet: Simnet, _ client: HTTPClient, _ txid: String) async throws -> (Int64, Int) {
        let response = try await client.execute(
            HTTPClientRequest(url: "\(simnet.baseURL)/api/v2/tx/\(txid)"),
            timeout: .seconds(10)
        )
        let body = try await response.body.collect(upTo: 1 << 20)
        let json = try JSONValue.parse(Array(body.readableBytesView))
        guard case .string(let fees)? = json["fees"], let fee = Int64(fees), case .number(let size)? = json["vsize"],
            let vsize = Int(size)
        else { throw CancellationError() }
        return (fee, vsize)
    }

    /// `feeRate` within half a hundredth of the exact fee / vsize, computed here in Decimal.
    static func expectRate(_ data: JSONValue, fee: Int64, vsize: Int) throws {
        guard case .string(let text)? = data["feeRate"], let rate = Decimal(string: text) else {
            Issue.record("feeRate is not a decimal string: \(String(describing: data["feeRate"]))")
            return
        }
        let exact = Decimal(fee) / Decimal(vsize)
        #expect(abs(rate - exact) <= Decimal(string: "0.005")!)
        #expect(text.split(separator: ".").last?.count == 2)
        #expect(data["feeSat"] == .number("\(fee)"))
        #expect(data["vsize"] == .number("\(vsize)"))
    }

    @Test func unconfirmedPaymentsCarryFeeRateRBFAndUnconfirmedInputs() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: #"""
                    [{"id": "pay", "type": "address", "providers": ["bb"], "every": "1s",
                      "addresses": ["\#(Self.payer)", "\#(Self.payee)"]}]
                    """#
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the baseline") {
                    try store.read { txn in
                        try [Self.payer, Self.payee].allSatisfy {
                            try txn.addressState(chain: "btc", address: $0)?.summary != nil
                        }
                    }
                }
                // Funded from confirmed coins, not signalling.
                let funding = try await simnet.pay(to: Self.payer, amountSat: 80_000, rbf: false)
                let first = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", funding)
                )
                let (fee, vsize) = try await Self.feeAndSize(simnet, client, funding)
                try Self.expectRate(first["data"] ?? .null, fee: fee, vsize: vsize)
                #expect(first["data"]?["rbf"] == .bool(false))
                #expect(first["data"]?["unconfirmedInputs"] == .number("0"))

                // Spends the payer's unconfirmed coin, signalling.
                let spend = try await simnet.pay(to: Self.payee, amountSat: 30_000, from: Self.payer)
                let received = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: { $0["txid"] == .string(spend) && $0["address"] == .string(Self.payee) }
                )
                let sent = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: { $0["txid"] == .string(spend) && $0["address"] == .string(Self.payer) }
                )
                let (spendFee, spendSize) = try await Self.feeAndSize(simnet, client, spend)
                for event in [received, sent] {
                    try Self.expectRate(event["data"] ?? .null, fee: spendFee, vsize: spendSize)
                    #expect(event["data"]?["rbf"] == .bool(true))
                    #expect(event["data"]?["unconfirmedInputs"] == .number("1"))
                }
            }
        }
    }

    /// Issue 33, item 9: a wallet on Blockbook's `xpub` strategy (what `auto` picks there) carries the same facts:
    /// its summary's transactions are the full form, with `fees`, `vsize` and each vin's `txid` and `sequence`.
    @Test func aWalletOnTheXpubStrategyCarriesTheSameFacts() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: #"""
                    [{"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "xpub",
                      "descriptor": "\#(WalletHarness.descriptor)", "gap": \#(WalletHarness.gap)}]
                    """#
            )
            let zero = try WalletHarness.address(.receive, 0)
            let one = try WalletHarness.address(.receive, 1)
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the wallet's first round") {
                    try WalletHarness.state(store)?.receive.checkedUpTo != nil
                }
                let funding = try await simnet.pay(to: zero, amountSat: 80_000, rbf: false)
                let first = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", funding)
                )
                let (fee, vsize) = try await Self.feeAndSize(simnet, client, funding)
                try Self.expectRate(first["data"] ?? .null, fee: fee, vsize: vsize)
                #expect(first["data"]?["rbf"] == .bool(false), "\(first)")
                #expect(first["data"]?["unconfirmedInputs"] == .number("0"), "\(first)")

                // Spends the wallet's own unconfirmed coin at index 0, signalling.
                let spend = try await simnet.pay(to: one, amountSat: 30_000, from: zero)
                let received = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: { $0["txid"] == .string(spend) && $0["address"] == .string(one) }
                )
                let (spendFee, spendSize) = try await Self.feeAndSize(simnet, client, spend)
                try Self.expectRate(received["data"] ?? .null, fee: spendFee, vsize: spendSize)
                #expect(received["data"]?["rbf"] == .bool(true), "\(received)")
                #expect(received["data"]?["unconfirmedInputs"] == .number("1"), "\(received)")
            }
        }
    }
}
