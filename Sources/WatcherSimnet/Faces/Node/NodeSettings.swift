import Foundation

/// The switches of the simnet's Bitcoin Core face (`POST /control/bitcoind`): a node warming up, a full work
/// queue, methods an `-rpcwhitelist` forbids, and a node without fee estimates.
public struct NodeSettings: Sendable, Hashable {
    /// While on, every JSON-RPC call fails with error -28 and ``warmupMessage``, and REST answers 503.
    public var warmup: Bool
    /// The -28 message (Core's texts: `Loading block index…`, `Verifying blocks…`, `Loading P2P addresses…`).
    public var warmupMessage: String
    /// While on, every JSON-RPC and REST request gets HTTP 503 `Work queue depth exceeded` (plain text).
    public var workQueueFull: Bool
    /// Methods answered HTTP 403 with an empty body (a batch with any of them is refused whole).
    public var forbiddenMethods: Set<String>
    /// While on, the node says it is in initial block download: `initialblockdownload: true`, `headers` 144 above
    /// `blocks` and a `verificationprogress` below 1 (the blocks it serves are still the simnet's chain).
    public var initialBlockDownload: Bool
    /// The chain `getblockchaininfo` claims: `main` (the simnet's addresses are mainnet's), or `test`, `testnet4`,
    /// `signet`, `regtest` to play a node of another network (the blocks served stay the simnet's).
    public var chain: String
    /// While on, `estimatesmartfee` answers as a node with too little data to estimate (always so on regtest):
    /// `{"errors": ["Insufficient data or no feerate found"], "blocks": 0}`, without `feerate`.
    public var insufficientFeeData: Bool

    /// The chain names Bitcoin Core reports.
    public static let chains = ["main", "test", "testnet4", "signet", "regtest"]

    /// Creates the switches; by default a synced node serving everything.
    public init(
        warmup: Bool = false,
        warmupMessage: String = "Loading block index…",
        workQueueFull: Bool = false,
        forbiddenMethods: Set<String> = [],
        initialBlockDownload: Bool = false,
        chain: String = "main",
        insufficientFeeData: Bool = false
    ) {
        self.warmup = warmup
        self.warmupMessage = warmupMessage
        self.workQueueFull = workQueueFull
        self.forbiddenMethods = forbiddenMethods
        self.initialBlockDownload = initialBlockDownload
        self.chain = chain
        self.insufficientFeeData = insufficientFeeData
    }
}

/// Who may call the JSON-RPC face: the `rpcuser`/`rpcpassword` pair and the cookie's password.
struct NodeCredentials: Sendable {
    let user: String
    let password: String
    /// The random password of the `__cookie__` user.
    let cookie: String

    /// `true` if an `Authorization: Basic …` header names the configured user or the cookie.
    func accepts(_ header: String?) -> Bool {
        guard let header, header.lowercased().hasPrefix("basic ") else { return false }
        let encoded = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8) else {
            return false
        }
        return text == "\(user):\(password)" || text == "__cookie__:\(cookie)"
    }
}
