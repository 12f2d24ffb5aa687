import BlockbookAdapter
import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherTesting

/// The real recorded `/api/v2/xpub` bodies through the real transport and the adapter's `walletSummary`.
@Suite("Blockbook wallet summaries")
struct BlockbookWalletFixtureTests {
    static let zpub =
        "zpub6ruK9k6YGm8BRHWvTiQcrEPnFkuRDJhR7mPYzV2LDvjpLa5CuGgrhCYVZjMGcLcFqv9b2WvsFtY2Gb3xq8NVq8qhk9veozrA2W9QaWtihrC"

    @Test func theMainnetZpubBodyDecodesAndEveryPathReDerivesToItsAddress() async throws {
        let answers = ["/api/v2/xpub/\(Self.zpub)": try Fixture.answer("blockbook/xpub-zpub-mainnet-txs.json")]
        try await FixtureServer.with(answers, adapter: BlockbookFixtureTests.blockbook) { bb in
            let summary = try await bb.walletSummary(Self.zpub, gap: 20, page: 1, pageSize: 10)
            #expect(summary.page == 1 && summary.totalPages == 10 && !summary.isLastPage)
            #expect(summary.balanceSat == 35_963 && summary.txCount == 94 && summary.unconfirmedTxCount == 0)
            #expect(summary.unconfirmedBalanceSat == 0)
            #expect(summary.tokens.count == 8 && summary.transactions.count == 10)
            #expect(summary.tokens.compactMap(\.balanceSat).reduce(0, +) == summary.balanceSat)
            let first = try #require(summary.tokens.first)
            #expect(first.path == "m/84'/0'/0'/0/0" && first.transfers == 13 && first.totalReceivedSat == 92_089)
            let wallet = try WalletDescriptor(parsing: Self.zpub, network: .mainnet)
            for token in summary.tokens {
                let (branch, index) = try #require(token.branchAndIndex)
                let derived = try wallet.address(branch == 0 ? .receive : .change, index: UInt32(index))
                #expect(derived.address.string == token.address, "\(token.path)")
                #expect(derived.path.components.suffix(2) == [UInt32(branch), UInt32(index)])
            }
            // Every token's address appears in the transactions it is said to take part in.
            let touched = Set(summary.transactions.flatMap { ($0.inputs + $0.outputs).compactMap(\.address) })
            #expect(touched.contains(first.address))
        }
    }

    @Test func theFakeChainUpubBodyHasItsTokenAndNoTransactionsAtTxids() async throws {
        let upub =
            "upub5E1xjDmZ7Hhej6LPpS8duATdKXnRYui7bDYj6ehfFGzWDZtmCmQkZhc3Zb7kgRLtHWd16QFxyP86JKL3ShZEBFX88aciJ3xyocuyhZZ8g6q"
        let answers = ["/api/v2/xpub/\(upub)": try Fixture.answer("blockbook/xpub-txids.json")]
        try await FixtureServer.with(answers, adapter: BlockbookFixtureTests.blockbook) { bb in
            let summary = try await bb.walletSummary(upub, gap: 20, page: 1, pageSize: 1000)
            #expect(summary.isLastPage && summary.txCount == 2 && summary.balanceSat == 118_641_975_500)
            #expect(summary.tokens.map(\.path) == ["m/49'/1'/33'/1/3"])
            let wallet = try WalletDescriptor(parsing: upub, network: .testnet)
            #expect(try wallet.address(.change, index: 3).address.string == summary.tokens.first?.address)
        }
    }

    @Test func anotherWalletsBodyOrTheStatusPageIsRefused() async throws {
        let answers = [
            "/api/v2/xpub/xpubOther": try Fixture.answer("blockbook/xpub-zpub-mainnet-txs.json"),
            "/api/v2/xpub/xpubStatus": try Fixture.answer("blockbook/status.json"),
        ]
        try await FixtureServer.with(answers, adapter: BlockbookFixtureTests.blockbook) { bb in
            for asked in ["xpubOther", "xpubStatus"] {
                await #expect {
                    _ = try await bb.walletSummary(asked, gap: 20, page: 1, pageSize: 10)
                } throws: { error in
                    guard case ProviderError.invalidResponse(let provider, _) = error else { return false }
                    return provider == "bb"
                }
            }
        }
    }
}
