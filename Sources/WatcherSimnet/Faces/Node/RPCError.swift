import WatcherCore
import WatcherJSON

/// A JSON-RPC error object as Bitcoin Core sends it: `{"code": …, "message": "…"}`.
struct RPCError: Error, Sendable, Equatable {
    let code: Int
    let message: String

    var json: JSONValue {
        .object([.init("code", .integer(code)), .init("message", .string(message))])
    }

    /// The HTTP status of a legacy (JSON-RPC 1.x) reply carrying this error (Core's `JSONErrorReply`).
    var legacyStatus: Int {
        switch code {
        case -32600: 400
        case -32601: 404
        default: 500
        }
    }

    static let methodNotFound = RPCError(code: -32601, message: "Method not found")
    static let parseError = RPCError(code: -32700, message: "Parse error")
    static let blockNotFound = RPCError(code: -5, message: "Block not found")
    static let heightOutOfRange = RPCError(code: -8, message: "Block height out of range")
    static let noSuchTransaction = RPCError(
        code: -5,
        message: "No such mempool or blockchain transaction. Use gettransaction for wallet transactions."
    )
    static let noTxindex = RPCError(
        code: -5,
        message: "No such mempool transaction. Use -txindex or provide a block hash to enable blockchain transaction "
            + "queries. Use gettransaction for wallet transactions."
    )
    static let notInMempool = RPCError(code: -5, message: "Transaction not in mempool")

    static func invalidRequest(_ message: String = "Invalid Request") -> RPCError {
        RPCError(code: -32600, message: message)
    }

    static func invalidParameter(_ message: String) -> RPCError {
        RPCError(code: -8, message: message)
    }

    /// Core's `RPC_TYPE_ERROR` for a parameter of the wrong JSON type.
    static func type(_ value: JSONValue, expected: String) -> RPCError {
        RPCError(code: -3, message: "JSON value of type \(coreType(value)) is not of expected type \(expected)")
    }

    /// UniValue's type names.
    static func coreType(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
