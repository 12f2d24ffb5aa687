import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// The secrets the secret suites put in every place the config takes one, and the config that holds them.
enum SecretsHarness {
    /// The values to search for: each secret, the signing key without its prefix, and the node's Basic credentials.
    static var needles: [String] {
        Array(environment.values) + [
            httpToken, String(hookSecret.dropFirst("whsec_".count)),
            Data("watcher:\(nodePassword)".utf8).base64EncodedString(),
        ]
    }

    /// Every secret by the variable that holds it.
    static let environment = [
        "W_NODE_PASSWORD": nodePassword, "W_NODE_KEY": "s3cret-node-key-81f0", "W_BB_KEY": "s3cret-bb-key-c4d2",
        "W_RA_KEY": "s3cret-ra-key-9b7e", "W_CD_KEY": "s3cret-cd-key-0a3f", "W_JP_KEY": "s3cret-jp-key-6d15",
        "W_JP_TOKEN": "s3cretjptoken77c1", "W_HOOK_TOKEN": "s3crethooktoken2e9", "W_HOOK_SECRET": hookSecret,
        "W_HOOK_AUTH": "s3cret-hook-auth-f38b", "W_PG_PASSWORD": "s3cretpgpw4a60",
    ]

    static func config(_ data: String, simnet: String, hook: String, deadPort: Int, followed: String, every: String)
        -> String
    {
        """
        {"storage": {"path": "\(data)"},
         "providers": [
           {"id": "node", "type": "bitcoind", "options": {"url": "\(simnet)", "user": "watcher",
            "password": "${W_NODE_PASSWORD}", "headers": {"X-Node-Key": "${W_NODE_KEY}"}, "timeout": "2s"}},
           {"id": "bb", "type": "blockbook", "options": {"url": "\(simnet)", "headers": {"api-key": "${W_BB_KEY}"},
            "timeout": "2s"}, "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}},
           {"id": "ra", "type": "rawaddr", "options": {"url": "\(simnet)",
            "headers": {"Authorization": "Bearer ${W_RA_KEY}"}, "timeout": "2s"}},
           {"id": "cd", "type": "coindesk", "options": {"url": "\(simnet)", "headers": {"X-Key": "${W_CD_KEY}"},
            "timeout": "2s"}},
           {"id": "jp", "type": "json-price", "options": {
            "url": "\(simnet)/v2/prices/BTC-{currency}/spot?key=${W_JP_TOKEN}", "pricePath": "data.amount",
            "headers": {"X-Key": "${W_JP_KEY}"}, "timeout": "2s"}},
           {"id": "down", "type": "json-price", "options": {
            "url": "http://127.0.0.1:\(deadPort)/v2/prices/BTC-{currency}/spot?key=${W_JP_TOKEN}",
            "pricePath": "data.amount", "headers": {"X-Key": "${W_JP_KEY}"}, "timeout": "2s"}}
         ],
         "watches": [
           {"id": "tip", "type": "blocks", "providers": ["node", "bb"], "every": "\(every)"},
           {"id": "addr", "type": "address", "providers": ["ra", "bb"], "every": "1s", "addresses": ["\(followed)"]},
           {"id": "usd", "type": "price", "providers": ["cd", "jp"], "every": "1s", "currency": "USD"},
           {"id": "eur", "type": "price", "providers": ["jp"], "every": "1s", "currency": "EUR"},
           {"id": "gbp", "type": "price", "providers": ["down"], "every": "1s", "currency": "GBP"}
         ],
         "sinks": [
           {"id": "hook", "type": "webhook", "options": {"url": "\(hook)?token=${W_HOOK_TOKEN}",
            "secret": "${W_HOOK_SECRET}", "headers": {"Authorization": "Bearer ${W_HOOK_AUTH}"},
            "maxBackoff": "200ms"}},
           {"id": "pg", "type": "postgres", "options": {
            "url": "postgres://watcher:${W_PG_PASSWORD}@127.0.0.1:\(deadPort)/watcher", "timeout": "1s",
            "maxBackoff": "1s"}}
         ]}
        """
    }

    static let nodePassword = "s3cret-node-pw-5e2a"

    static let hookSecret = "whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci1sb2dz"

    static let httpToken = "s3cret-http-token-d7c9"
}
