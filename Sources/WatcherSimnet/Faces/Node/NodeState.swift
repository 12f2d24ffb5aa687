import Foundation
import Synchronization
import WatcherBitcoin

/// The Bitcoin Core face's own state beside the chain: its switches, its credentials (the cookie rotates like a
/// restarted node's) and whether it has a transaction index.
final class NodeState: Sendable {
    private let settings: Mutex<NodeSettings>
    private let cookie: Mutex<String>
    private let user: String
    private let password: String
    /// Where the cookie file goes, `nil` for none.
    let cookieFile: String?
    /// Whether `getrawtransaction` and `/rest/tx` find confirmed transactions without a block hash.
    let txindex: Bool
    /// The release the node answers as.
    let version: CoreVersion

    init(configuration: SimnetConfiguration) {
        user = configuration.rpcUser
        password = configuration.rpcPassword
        cookieFile = configuration.cookieFile
        txindex = configuration.txindex
        version = configuration.coreVersion
        cookie = Mutex(Self.newCookie())
        settings = Mutex(NodeSettings(chain: configuration.chain.network.coreChainName))
    }

    /// 32 random bytes as hex, as Core's cookie. Not from the chain's seed: a cookie is a secret.
    private static func newCookie() -> String {
        var system = SystemRandomNumberGenerator()
        return Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &system) })
    }

    var currentSettings: NodeSettings { settings.withLock { $0 } }

    func set(_ value: NodeSettings) {
        settings.withLock { $0 = value }
    }

    /// Who may call JSON-RPC now.
    var credentials: NodeCredentials {
        NodeCredentials(user: user, password: password, cookie: cookie.withLock { $0 })
    }

    /// Writes the cookie file (when one is configured).
    func writeCookie() throws {
        guard let cookieFile else { return }
        let text = "__cookie__:\(cookie.withLock { $0 })"
        try Data(text.utf8).write(to: URL(fileURLWithPath: cookieFile))
    }

    /// A new cookie, as after a node restart; the file is rewritten. The old cookie stops working at once.
    func rotateCookie() throws {
        cookie.withLock { $0 = Self.newCookie() }
        try writeCookie()
    }

    func removeCookie() {
        if let cookieFile { try? FileManager.default.removeItem(atPath: cookieFile) }
    }
}
