import Foundation
import NIOCore
import PostgresNIO

/// A failure of the `postgres` sink in words: what happened and where, never the password.
///
/// PostgresNIO deliberately describes its errors generically; this reads the SQLSTATE and the server's message,
/// or the connection error, and adds a hint for the common cases.
struct PostgresFailure: Error, Sendable, CustomStringConvertible {
    /// The message.
    var description: String
    /// The SQLSTATE, when the server answered.
    var sqlState: String?

    /// Whether the rows themselves were refused (SQLSTATE class 22, data exception): retrying the same batch
    /// cannot help, but the events in it may be fine one by one.
    var isDataError: Bool { sqlState?.hasPrefix("22") ?? false }

    init(_ description: String, sqlState: String? = nil) {
        self.description = description
        self.sqlState = sqlState
    }

    /// Describes `error` for `endpoint`, redacting its password.
    init(_ error: any Error, endpoint: PostgresEndpoint) {
        let (text, state) = Self.describe(error)
        var message = "\(endpoint): \(text)"
        if let password = endpoint.password, !password.isEmpty {
            message = message.replacingOccurrences(of: password, with: "***")
        }
        self.init(message, sqlState: state)
    }

    private static func describe(_ error: any Error) -> (String, String?) {
        switch error {
        case let failure as PostgresFailure:
            return (failure.description, failure.sqlState)
        case let transaction as PostgresTransactionError:
            let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError
            return inner.map(describe) ?? ("the transaction failed", nil)
        case let error as PSQLError:
            return describe(error)
        case is CancellationError:
            return ("cancelled", nil)
        default:
            return (String(describing: error), nil)
        }
    }

    private static func describe(_ error: PSQLError) -> (String, String?) {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState]
            let message = error.serverInfo?[.message] ?? "the server refused the request"
            return ("\(message) (SQLSTATE \(state ?? "?"))\(hint(state))", state)
        case .connectionError:
            let cause = error.underlying.map { String(describing: $0) } ?? "unknown cause"
            return ("cannot connect: \(cause)", nil)
        case .serverClosedConnection, .uncleanShutdown:
            return ("the server closed the connection (restarting or shutting down?)", nil)
        case .clientClosedConnection:
            return ("the connection was closed", nil)
        case .sslUnsupported:
            return ("the server does not support TLS (tls: require); use tls: prefer or disable", nil)
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword:
            return ("the server asks for a password or an authentication method the URL does not provide", nil)
        case .saslError:
            return ("SCRAM authentication failed (wrong password?)", nil)
        default:
            return ("\(error.code)", nil)
        }
    }

    private static func hint(_ state: String?) -> String {
        switch state {
        case "28P01", "28000":
            return "; check the user and the password in the url's ${ENV} variable"
        case "3D000":
            return "; create the database first"
        case "42501":
            return "; the user needs CREATE on the schema and INSERT on the table"
        case "53100":
            return "; the database server's disk is full"
        case "57P01", "57P02", "57P03":
            return "; the server is restarting"
        default:
            return ""
        }
    }
}
