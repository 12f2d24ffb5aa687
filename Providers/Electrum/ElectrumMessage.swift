import NIOCore
import WatcherBitcoin
import WatcherJSON

/// One line from an Electrum server, decoded: a reply to a call (matched by its numeric id), a notification (routed
/// by its method), or why the line ends the connection (not a JSON object, a reply without a numeric id, or a
/// request from the server, which a client never answers).
package enum ElectrumMessage: Sendable, Equatable {
    /// The reply to call `id`: its result, or the server's error.
    case reply(id: Int, Result<JSONValue, ElectrumClient.Failure>)
    /// A notification: `blockchain.headers.subscribe`, `blockchain.scripthash.subscribe`, …
    case notification(method: String, params: [JSONValue])
    /// A line the client cannot take: the connection is dropped with this reason.
    case invalid(String)

    /// Decodes one line (without its `\n`).
    package static func decode(_ line: [UInt8]) -> ElectrumMessage {
        guard let message = try? JSONValue.parse(line), case .object = message else {
            return .invalid("a line that is not a JSON object")
        }
        if let method = message["method"]?.stringValue {
            guard message["id"] == nil || message["id"] == .null else {
                return .invalid("the server sent a request (\(method))")
            }
            return .notification(method: method, params: message["params"]?.arrayValue ?? [])
        }
        guard case .number(let text)? = message["id"], let id = Int(text) else {
            return .invalid("a reply without a numeric id")
        }
        if let error = message["error"], error != .null {
            let failure: ElectrumClient.Failure =
                switch error {
                case .string(let text): .server(code: nil, message: text)
                default:
                    .server(
                        code: error["code"].flatMap { if case .number(let n) = $0 { Int(n) } else { nil } },
                        message: error["message"]?.stringValue ?? error.serialized()
                    )
                }
            return .reply(id: id, .failure(failure))
        }
        return .reply(id: id, .success(message["result"] ?? .null))
    }

    /// The fuzzing harness (`FuzzHarness.electrum`): `bytes` as a stream from a server, split into lines by
    /// ``ElectrumLineReader`` (with a small cap, so long lines are refused as on a connection) and each line
    /// decoded; a header notification's header is parsed too. Returns how many lines were decoded.
    @discardableResult
    package static func fuzz(_ bytes: [UInt8]) -> Int {
        var buffer = ByteBuffer(bytes: bytes)
        var lines = 0
        while let line = try? ElectrumLineReader.nextLine(&buffer, maxLength: 4_096) {
            lines += 1
            guard case .notification(let method, let params) = decode(Array(line.readableBytesView)),
                method == "blockchain.headers.subscribe", let hex = params.first?["hex"]?.stringValue
            else { continue }
            _ = (try? RawBlockHeader(hex: hex))?.hash.displayHex
        }
        return lines
    }
}
