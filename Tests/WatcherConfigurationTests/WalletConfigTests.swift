import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherTestSupport

/// `wallet` watches that load: defaults, the normalised descriptor `watcher check` shows, and `--shard` splitting
/// wallets by id.
struct WalletConfigTests {
    static func load(_ watches: String, providers: String? = nil) throws -> WatcherConfig {
        try ConfigLoader(registry: .builtIn, environment: [:])
            .load(bytes: Array(ConfigText.config(providers: providers, watches: watches).utf8))
    }

    @Test func aBareZpubIsAP2WPKHWalletWithTheDefaults() throws {
        let config = try Self.load(
            #"[{"id": "shop", "type": "wallet", "providers": ["bb"], "xpub": "\#(WalletKeys.zpub)", "label": "Shop"}]"#
        )
        let watch = try #require(config.watches.first)
        #expect(watch.kind == .wallet && watch.gap == 20 && watch.label == "Shop")
        #expect(watch.confirmations == [1, 3, 6] && watch.strategy == .auto && watch.every == .seconds(120))
        let wallet = try #require(watch.wallet)
        #expect(wallet.scriptType == .p2wpkh)
        // BIP84's first receive and change addresses.
        #expect(try wallet.address(.receive, index: 0).address.string == "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
        #expect(try wallet.address(.change, index: 0).address.string == "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el")
    }

    @Test func checkShowsTheDescriptorNormalisedWithItsChecksum() throws {
        let written = WalletKeys.wpkh84.replacingOccurrences(of: "h/", with: "'/").dropLast(9)
        let config = try Self.load(
            #"[{"id": "shop", "type": "wallet", "providers": ["bb"], "descriptor": "\#(written)", "gap": 500}]"#
        )
        let shown = config.resolved["watches"]?[0]
        #expect(shown?["descriptor"] == .string(WalletKeys.wpkh84))
        #expect(shown?["gap"] == .number("500"))
        #expect(shown?["addresses"] == nil && shown?["txid"] == nil)
    }

    @Test func aShardFollowsAWalletWholeByItsId() throws {
        let config = try Self.load(
            #"[{"id": "shop", "type": "wallet", "providers": ["bb"], "xpub": "\#(WalletKeys.zpub)"}]"#
        )
        let shards = (1...3).compactMap { Shard("\($0)/3") }
        let keeping = shards.filter { !$0.apply(to: config.watches).isEmpty }
        #expect(keeping.count == 1)
        #expect(keeping.first?.index == Shard.shard(of: "shop", count: 3))
    }
}
