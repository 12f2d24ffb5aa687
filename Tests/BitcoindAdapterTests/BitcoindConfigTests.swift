import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins

/// A `bitcoind` provider in a config: its options, its secret, its default limit, and address and wallet watches
/// that scan its blocks because a node has no address index.
@Suite struct BitcoindConfigTests {
    static let secret = "n0de-Pa55word-for-tests"

    func load(_ options: String, watches: String = "[]") throws(ConfigError) -> WatcherConfig {
        try ConfigLoader(registry: .builtIn, environment: ["NODE_PASSWORD": Self.secret]).load(
            bytes: Array(
                """
                {"providers": [{"id": "node", "type": "bitcoind", "chain": "btc", "options": \(options)}],
                 "watches": \(watches), "sinks": []}
                """.utf8
            )
        )
    }

    func issues(_ options: String, watches: String = "[]") -> [String] {
        do {
            let config = try load(options, watches: watches)
            return config.warnings.map(\.description)
        } catch {
            return error.issues.map(\.description)
        }
    }

    @Test func theIssuesExampleLoadsWithAConcurrencyCapAndNoBudget() throws {
        let config = try load(
            #"{"url": "http://127.0.0.1:8332", "cookieFile": "/var/lib/bitcoind/.cookie", "rest": false}"#
        )
        let node = try #require(config.provider("node"))
        #expect(node.rateLimit.requests == 0)
        #expect(node.rateLimit.concurrency == 4)
        #expect(!node.chainCapabilities.contains(.address))
        #expect(node.plugin.chain == "btc")
    }

    @Test func credentialsAreOneOfTwoAndThePasswordIsNeverShown() throws {
        #expect(issues("{}").contains { $0.contains("the node needs credentials") })
        #expect(issues(#"{"user": "watcher"}"#).contains { $0.contains("user and password go together") })
        #expect(
            issues(#"{"cookieFile": "/c", "user": "u", "password": "${NODE_PASSWORD}"}"#).contains {
                $0.contains("not both")
            }
        )
        #expect(issues(#"{"user": "u", "password": "plain"}"#).contains { $0.contains("as ${ENV}") })
        let config = try load(#"{"user": "watcher", "password": "${NODE_PASSWORD}"}"#)
        #expect(!config.resolved.serialized().contains(Self.secret))
        #expect(config.resolved.serialized().contains("${NODE_PASSWORD}"))
    }

    @Test func addressAndWalletWatchesScanItsBlocks() throws {
        let watches = """
            [{"id": "shop", "type": "address", "providers": ["node"], "every": "1m",
              "addresses": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"]},
             {"id": "till", "type": "wallet", "providers": ["node"], "every": "1m",
              "descriptor": "wpkh([d34db33f/84h/0h/0h]xpub6DJ2dNUysrn5Vt36jH2KLBT2i1auw1tTSSomg8PhqNiUtx8QX2SvC9nrHu81fT41fvDUnhMjEzQgXnQjKEu3oaqMSzhSrHMxyyoEAmUHQbY/<0;1>/*)"}]
            """
        let options = #"{"cookieFile": "/var/lib/bitcoind/.cookie"}"#
        let plan = JobPlan(config: try load(options, watches: watches))
        let shop = try #require(plan.jobs.first { $0.name == "watch shop" })
        #expect(shop.work == .addresses(chain: "btc", watch: "shop", strategy: .scan))
        #expect(shop.detail.contains("node has no address index"))
        #expect(shop.detail.contains("starting balances read once from node's UTXO set"))
        #expect(shop.detail.contains("the history before the watch started is not known"))
        #expect(shop.detail.contains("poll n/a"))
        let till = try #require(plan.jobs.first { $0.name == "watch till" })
        #expect(till.work == .wallet(chain: "btc", watch: "till", strategy: .scan))
        #expect(till.detail.contains("starting balances read once from node's UTXO set"))
        let tip = try #require(plan.jobs.first { $0.name == "tip btc" })
        guard case .chain(_, _, _, _, _, let scan?) = tip.work else {
            Issue.record("the tip job does not scan")
            return
        }
        #expect(scan.watches.contains("shop") && scan.watches.contains("till"))
        #expect(scan.providers == ["node"])
        // Polling is refused, naming why.
        let polled = watches.replacingOccurrences(of: #""every": "1m","#, with: #""every": "1m", "strategy": "poll","#)
        #expect(issues(options, watches: polled).contains { $0.contains("has no address index, so it cannot poll") })
    }
}
