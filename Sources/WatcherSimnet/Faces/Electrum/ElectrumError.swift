import WatcherCore
import WatcherJSON

/// A JSON-RPC error as Electrum servers send it (errors-by-server-transcribed.json): an object with `code` and
/// `message`, or, for Blockstream's electrs refusing verbose transactions, a bare string.
struct ElectrumError: Error, Sendable, Hashable {
    var code: Int
    var message: String
    /// Sent as `"error": "<message>"` instead of an object.
    var bare = false

    var json: JSONValue {
        bare ? .string(message) : .object([.init("code", .integer(code)), .init("message", .string(message))])
    }

    static let parse = ElectrumError(code: -32700, message: "parse error")
    static let invalidRequest = ElectrumError(code: -32600, message: "invalid request")
    static let methodNotFound = ElectrumError(code: -32601, message: "method not found")
    static let invalidParams = ElectrumError(code: -32602, message: "invalid params")
    /// electrs's answer while its index is not ready (initial sync or compaction).
    static let unavailableIndex = ElectrumError(code: -32603, message: "unavailable index")
    /// ElectrumX's answer for a history longer than its limit.
    static let historyTooLarge = ElectrumError(code: 10001, message: "history too large")
    /// Fulcrum's answer past `max_subs_per_ip`.
    static let subscriptionLimit = ElectrumError(code: 4, message: "Subscription limit reached")
    /// Blockstream electrs's answer to `transaction.get` with `verbose` true.
    static let verboseUnsupported = ElectrumError(
        code: 0,
        message: "verbose transactions are currently unsupported",
        bare: true
    )
    /// A bitcoind `-5` passed through as error 2 (electrs's `bitcoind RPC error`).
    static let noSuchTransaction = ElectrumError(
        code: 2,
        message: "No such mempool or blockchain transaction. Use gettransaction for wallet transactions."
    )

    /// A handler failure (electrs's error 1, its text).
    static func failed(_ message: String) -> ElectrumError {
        ElectrumError(code: 1, message: message)
    }
}
