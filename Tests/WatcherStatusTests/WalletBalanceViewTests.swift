import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON

@testable import WatcherStatus

/// A wallet balance that is not known says so (issue 33 item 1): a scanned wallet learns a paid address from the
/// block and reads its balance afterwards (the balance fill, from spare budget). Until then the wallet's balances are
/// `null` in `wallets list/show --json` and `/api/wallets`, and "pending" with the unread count in the CLI and the
/// web UI, never the sum of the balances known (0 for a first payment).
struct WalletBalanceViewTests {
    /// A wallet `shop` whose used addresses have these balances (`nil`: paid, balance not read yet).
    static func wallet(_ balances: [Int64?]) -> WalletViews.Wallet {
        let watch = WatchConfig(id: "shop", kind: .wallet, chain: "btc", providers: ["bb"], every: .seconds(120))
        var state = WalletState(chain: "btc", wallet: "shop", descriptor: "wpkh(…)")
        var addresses: [AddressState] = []
        for (index, balance) in balances.enumerated() {
            let address = "bc1qaddress\(index)"
            var used = AddressState(chain: "btc", address: address)
            used.wallet = WalletAddressRef(wallet: "shop", branch: .receive, index: index)
            used.txs["tx\(index)"] = .init(txid: "tx\(index)", blockHeight: 100, blockHash: "h100", deltaSat: 40_600)
            if let balance {
                used.summary = AddressSummary(
                    address: address,
                    balanceSat: balance,
                    totalReceivedSat: balance,
                    totalSentSat: 0,
                    txCount: 1,
                    unconfirmedBalanceSat: 0,
                    unconfirmedTxCount: 0
                )
                state.balanceSat += balance
            }
            addresses.append(used)
        }
        return WalletViews.Wallet(watch: watch, state: state, addresses: addresses, issued: [], tipHeight: 100)
    }

    @Test func anUnreadUsedAddressLeavesTheBalancesUnknown() {
        let wallet = Self.wallet([40_600, nil, nil])
        #expect(wallet.unreadAddresses == 2)
        #expect(wallet.balances == nil)
        #expect(wallet.pendingText == "pending (2 used addresses not read yet)")
        let json = WalletViews.summary(wallet, prices: [])
        #expect(json["balanceSat"] == .null)
        #expect(json["balanceBtc"] == .null)
        #expect(json["unconfirmedSat"] == .null)
        #expect(json["unreadAddresses"] == .integer(2))
        #expect(json["fiat"] == .object([]))
        let row = WebFragments.wallets([wallet])
        #expect(row.contains(#"data-pending="1">pending (2 used addresses not read yet)</td>"#), "\(row)")
        #expect(!row.contains("0.00040600"), "\(row)")
    }

    @Test func onceEveryUsedAddressIsReadTheSumIsTheBalance() {
        let wallet = Self.wallet([40_600, 1_000])
        #expect(wallet.unreadAddresses == 0)
        #expect(wallet.balances?.confirmed == 41_600)
        let json = WalletViews.summary(wallet, prices: [])
        #expect(json["balanceSat"] == .number("41600"))
        #expect(json["balanceBtc"] == .string("0.00041600"))
        #expect(json["unreadAddresses"] == .integer(0))
    }

    @Test func anUnusedAddressWithoutASummaryIsNotUnread() {
        var wallet = Self.wallet([40_600])
        var unused = AddressState(chain: "btc", address: "bc1qunused")
        unused.wallet = WalletAddressRef(wallet: "shop", branch: .receive, index: 1)
        wallet.addresses.append(unused)
        #expect(wallet.unreadAddresses == 0)
        #expect(wallet.balances?.confirmed == 40_600)
    }

    @Test func beforeTheFirstRoundItIsPendingWithoutACount() {
        var wallet = Self.wallet([])
        wallet.state = nil
        #expect(wallet.balances == nil)
        #expect(wallet.pendingText == "pending")
    }
}
