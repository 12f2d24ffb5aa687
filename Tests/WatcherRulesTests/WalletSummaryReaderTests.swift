import Foundation
import Testing
import WatcherBitcoin
import WatcherCore

@testable import WatcherRules

/// A provider's wallet summary read on values: tokens' paths re-derived, the transactions matched by script with
/// the window grown and the page matched again, one observation per address touched, and the provider's window.
struct WalletSummaryReaderTests {
    /// BIP84's account (shared/fixtures/wallets/merchant_descriptors_computed.json), gap 3.
    static let wallet: FollowedWallet = {
        let text =
            "wpkh([73c5da0a/84h/0h/0h]xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)#qf45pmyh"
        do {
            return FollowedWallet(
                id: "shop",
                descriptor: try WalletDescriptor(parsing: text, network: .mainnet),
                gap: 3,
                thresholds: [1],
                reorgSafety: 6,
                from: nil,
                label: nil,
                strategy: .xpub
            )
        } catch { fatalError("\(error)") }
    }()

    static func address(_ branch: WalletBranch, _ index: Int) throws -> String { try wallet.address(branch, index) }

    static func token(_ branch: Int, _ index: Int, balance: Int64, address: String? = nil) throws
        -> WalletSummary.Token
    {
        WalletSummary.Token(
            address: try address ?? Self.address(branch == 0 ? .receive : .change, index),
            path: "m/84'/0'/0'/\(branch)/\(index)",
            transfers: 1,
            balanceSat: balance,
            totalReceivedSat: balance,
            totalSentSat: 0
        )
    }

    static func summary(_ tokens: [WalletSummary.Token], _ transactions: [ChainTransaction]) -> WalletSummary {
        WalletSummary(
            page: 1,
            totalPages: 1,
            balanceSat: tokens.compactMap(\.balanceSat).reduce(0, +),
            unconfirmedBalanceSat: nil,
            txCount: 1,
            unconfirmedTxCount: 0,
            tokens: tokens,
            transactions: transactions
        )
    }

    /// The first window (0...2 on both branches) as the script index holds it.
    static func state() -> WalletState {
        var state = WalletState(chain: "btc", wallet: "shop", descriptor: wallet.normalized)
        state.receive = .init(derivedUpTo: 2)
        state.change = .init(derivedUpTo: 2)
        return state
    }

    static func lookup(_ scripts: [[UInt8]]) throws -> [Int: WalletAddressRef] {
        var index: [[UInt8]: WalletAddressRef] = [:]
        for branch in WalletBranch.allCases {
            for i in 0...2 {
                index[try wallet.script(branch, i)] = WalletAddressRef(wallet: "shop", branch: branch, index: i)
            }
        }
        return scripts.enumerated().reduce(into: [:]) { found, item in found[item.offset] = index[item.element] }
    }

    @Test func oneBlockPayingTheEdgeAndBeyondItAndAMempoolChangeGiveThreeObservations() throws {
        let r2 = try Self.address(.receive, 2)
        let r5 = try Self.address(.receive, 5)
        let c1 = try Self.address(.change, 1)
        let outside = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
        let confirmed = ChainTransaction(
            txid: String(repeating: "a", count: 64),
            blockHeight: 800_001,
            blockHash: String(repeating: "b", count: 64),
            time: nil,
            feeSat: 100,
            inputs: [TxEndpoint(address: outside, valueSat: 2_000)],
            outputs: [TxEndpoint(address: r5, valueSat: 500), TxEndpoint(address: r2, valueSat: 1_000)]
        )
        let pending = ChainTransaction(
            txid: String(repeating: "c", count: 64),
            blockHeight: nil,
            blockHash: nil,
            time: nil,
            feeSat: 100,
            inputs: [TxEndpoint(address: r2, valueSat: 1_000)],
            outputs: [TxEndpoint(address: outside, valueSat: 600), TxEndpoint(address: c1, valueSat: 300)]
        )
        let summary = Self.summary(
            [try Self.token(0, 2, balance: 1_000), try Self.token(0, 5, balance: 500)],
            [pending, confirmed]
        )
        let outcome = try WalletSummaryReader.read(
            [summary],
            wallet: Self.wallet,
            state: Self.state(),
            provider: "bb",
            complete: true,
            gap: 3,
            tipHeight: 800_001,
            unconfirmedKnown: [:],
            lookup: Self.lookup
        )
        let byIndex = Dictionary(uniqueKeysWithValues: outcome.observed.map { ("\($0.ref)", $0) })
        #expect(Set(byIndex.keys) == ["shop/receive/2", "shop/receive/5", "shop/change/1"])
        // 5 lies past the first window: found once 2's use grew it (matched twice).
        let five = try #require(byIndex["shop/receive/5"]?.observation)
        #expect(five.history?.map(\.deltaSat) == [500] && five.summary.balanceSat == 500 && five.summary.txCount == 1)
        let two = try #require(byIndex["shop/receive/2"]?.observation)
        #expect(two.history?.map(\.deltaSat) == [-1_000, 1_000])
        #expect(two.summary.unconfirmedBalanceSat == -1_000 && two.summary.unconfirmedTxCount == 1)
        let change = try #require(byIndex["shop/change/1"]?.observation)
        #expect(change.summary.balanceSat == 0 && change.summary.unconfirmedBalanceSat == 300)
        #expect(change.history?.first?.blockHeight == nil)
        // The provider's window: last used 5 + gap on receive; nothing used on change, so 0 + gap.
        #expect(outcome.covered == [.receive: 8, .change: 3])
        #expect(outcome.derived.keys.contains(WalletAddressRef(wallet: "shop", branch: .receive, index: 5)))
    }

    @Test func aTokenWhosePathDoesNotDeriveItsAddressRefusesThePage() throws {
        // Index 2's address listed at index 3: the provider derives something else.
        let wrong = try Self.token(0, 3, balance: 1_000, address: try Self.address(.receive, 2))
        #expect {
            _ = try WalletSummaryReader.read(
                [Self.summary([wrong], [])],
                wallet: Self.wallet,
                state: Self.state(),
                provider: "bb",
                complete: true,
                gap: 3,
                tipHeight: nil,
                unconfirmedKnown: [:],
                lookup: Self.lookup
            )
        } throws: { error in
            guard case ProviderError.invalidResponse(let provider, let detail) = error else { return false }
            return provider == "bb" && detail.contains("m/84'/0'/0'/0/3")
        }
        let branchTwo = try Self.token(2, 0, balance: 1, address: try Self.address(.receive, 0))
        #expect(throws: ProviderError.self) {
            _ = try WalletSummaryReader.refs(Self.summary([branchTwo], []), wallet: Self.wallet, provider: "bb")
        }
    }
}
