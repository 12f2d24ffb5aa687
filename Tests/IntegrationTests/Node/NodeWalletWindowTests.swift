import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// A wallet scanned on a node without `-txindex` (issue 33, item 2): a payment to an index outside the window, in a
/// block after the wallet started, is announced once a later payment grows the window over it, not taken into the
/// starting balance silently. The wallet's confirmed steps add up to its balance.
@Suite(.serialized)
struct NodeWalletWindowTests {
    static var noTxindex: SimnetConfiguration {
        var configuration = NodeHarness.quiet
        configuration.txindex = false
        return configuration
    }

    @Test func aPaymentTheGrowingWindowReachesLaterIsAnnounced() async throws {
        try await Harness.withData(Self.noTxindex) { simnet, client, data in
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "wallet", "providers": ["node"], "every": "1s", "strategy": "scan",
                      "descriptor": "\(WalletHarness.descriptor)", "gap": 5}]
                    """
            )
            try await EngineHarness.running(config, client: client) { store in
                // The first window (0...4) prepared and its starting balances read: the payments below come after.
                try await eventually(timeout: .seconds(60), "the first window's starting balances") {
                    guard let state = try WalletHarness.state(store), state.since != nil else { return false }
                    let first = try WalletHarness.address(.receive, 0)
                    return try store.read { try $0.addressState(chain: "btc", address: first) }?.summary?.balanceSat
                        != nil
                }
                let four = try await simnet.pay(to: WalletHarness.address(.receive, 4), amountSat: 80_004)
                // Index 10 is outside the window 0...9 that index 4 grows it to.
                let ten = try await simnet.pay(to: WalletHarness.address(.receive, 10), amountSat: 80_010)
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(
                    store,
                    "wallet.balance.changed",
                    timeout: .seconds(60),
                    where: { $0["txid"] == .string(four) && $0["state"] == .string("confirmed") }
                )
                // Index 9 grows the window to 14, over index 10.
                let nine = try await simnet.pay(to: WalletHarness.address(.receive, 9), amountSat: 80_009)
                _ = try await simnet.mine(count: 1)
                for txid in [nine, ten] {
                    try await EngineHarness.event(
                        store,
                        "wallet.balance.changed",
                        timeout: .seconds(60),
                        where: { $0["txid"] == .string(txid) && $0["state"] == .string("confirmed") }
                    )
                }
                let confirmed = try await EngineHarness.event(
                    store,
                    "address.tx.confirmed",
                    where: { $0["txid"] == .string(ten) }
                )
                #expect(confirmed["data"]?["wallet"]?["index"] == .number("10"), "\(confirmed)")
                try await eventually(timeout: .seconds(60), "the wallet's balance counts the three payments") {
                    try WalletHarness.state(store)?.balanceSat == 240_023
                }
                let steps = try EngineHarness.events(store).filter { $0["type"] == .string("wallet.balance.changed") }
                let sum = steps.reduce(Int64(0)) { total, step in
                    guard case .number(let text)? = step["data"]?["confirmedDeltaSat"] else { return total }
                    return total + (Int64(text) ?? 0)
                }
                #expect(sum == 240_023, "\(steps)")
            }
        }
    }
}
