import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON

/// What `watcher accounts list` and `/api/accounts` share: which accounts, in which order, and their JSON.
struct FollowedAccountTests {
    static func watch(_ id: String, chain: String = "btc", _ addresses: [(String, String?)]) -> WatchConfig {
        var watch = WatchConfig(id: id, kind: .address, chain: chain, providers: ["bb"], every: .seconds(30))
        watch.addresses = addresses.map { WatchConfig.WatchedAddress(address: $0.0, label: $0.1) }
        return watch
    }

    static func account(_ address: String, _ label: String?) -> Account {
        Account(chain: "btc", address: address, label: label, addedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func configWatchesFirstThenStoredAccountsOnce() {
        let watches = [
            Self.watch("savings", [("a", "Savings"), ("b", nil)]),
            Self.watch("other-chain", chain: "tbtc", [("z", nil)]),
            Self.watch("cold", [("b", "ignored: b is already followed"), ("c", "Cold")]),
        ]
        let all = FollowedAccount.all(
            watches: watches,
            chain: "btc",
            accounts: [Self.account("a", "stored label"), Self.account("d", "Spare")]
        )
        #expect(
            all == [
                FollowedAccount(address: "a", label: "Savings", watch: "savings"),
                FollowedAccount(address: "b", label: nil, watch: "savings"),
                FollowedAccount(address: "c", label: "Cold", watch: "cold"),
                FollowedAccount(address: "d", label: "Spare", watch: FollowedAccount.accountsWatch),
            ]
        )
        #expect(FollowedAccount.configWatches(following: "b", chain: "btc", watches: watches) == ["savings", "cold"])
        #expect(FollowedAccount.configWatches(following: "d", chain: "btc", watches: watches).isEmpty)
    }

    @Test func balanceBtcAndFiatOnlyOnceTheBalanceIsKnown() throws {
        let prices = [
            PriceQuote(currency: "USD", price: Decimal(string: "65000.5")!, time: Date(), provider: "cd"),
            PriceQuote(currency: "EUR", price: Decimal(string: "60000")!, time: Date(), provider: "cd"),
        ]
        let pending = AccountJSON.account(address: "a", label: nil, summary: nil, fiat: prices)
        #expect(pending["balanceSat"] == .null && pending["balanceBtc"] == nil && pending["fiat"] == nil)
        let summary = AddressSummary(
            address: "a",
            balanceSat: 150_000_005,
            totalReceivedSat: 150_000_005,
            totalSentSat: 0,
            txCount: 1,
            unconfirmedBalanceSat: 0,
            unconfirmedTxCount: 0
        )
        let known = AccountJSON.account(address: "a", label: "L", summary: summary, fiat: prices)
        #expect(known["label"]?.stringValue == "L")
        #expect(known["balanceBtc"]?.stringValue == "1.50000005")
        // 1.50000005 BTC x 65000.5 = 97500.7532500325 -> 97500.75; x 60000 = 90000.003 -> 90000.
        #expect(known["fiat"]?["USD"]?.stringValue == "97500.75")
        #expect(known["fiat"]?["EUR"]?.stringValue == "90000")
        #expect(known["fiat"]?.members?.map(\.key) == ["EUR", "USD"])
    }

    @Test func providerSummariesLeaveDetailsOut() {
        let transport = ProviderError.transport(provider: "bb", detail: "connect to https://key@host/x?apikey=s3cret")
        #expect(transport.summary == "provider bb: connection failed")
        #expect(!ProviderError.badRequest(provider: "bb", detail: "apikey=s3cret").summary.contains("s3cret"))
        #expect(ProviderError.unavailable(provider: "bb", status: 503, detail: "x").summary.contains("HTTP 503"))
    }
}
