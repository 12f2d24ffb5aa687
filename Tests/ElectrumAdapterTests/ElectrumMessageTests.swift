import Testing
import WatcherJSON

@testable import ElectrumAdapter

/// The message decoder and the line reader, on the wire lines alone (the fuzzing harness runs the same functions).
struct ElectrumMessageTests {
    static func decode(_ text: String) -> ElectrumMessage { ElectrumMessage.decode(Array(text.utf8)) }

    @Test func repliesAreMatchedByIdWithTheirResultOrError() {
        #expect(Self.decode(#"{"jsonrpc":"2.0","id":7,"result":"1.4"}"#) == .reply(id: 7, .success(.string("1.4"))))
        #expect(Self.decode(#"{"jsonrpc":"2.0","id":8,"result":null}"#) == .reply(id: 8, .success(.null)))
        #expect(
            Self.decode(#"{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"unknown method"}}"#)
                == .reply(id: 9, .failure(.server(code: -32601, message: "unknown method")))
        )
        // Blockstream's electrs answers a verbose transaction.get with a bare string.
        #expect(
            Self.decode(#"{"id":10,"error":"verbose transactions are currently unsupported"}"#)
                == .reply(
                    id: 10,
                    .failure(.server(code: nil, message: "verbose transactions are currently unsupported"))
                )
        )
    }

    @Test func notificationsAreRoutedByMethod() {
        let line = #"{"jsonrpc":"2.0","method":"blockchain.scripthash.subscribe","params":["ab","cd"]}"#
        #expect(
            Self.decode(line)
                == .notification(method: "blockchain.scripthash.subscribe", params: [.string("ab"), .string("cd")])
        )
    }

    @Test func whatAClientCannotTakeEndsTheConnectionWithItsReason() {
        #expect(Self.decode("not json") == .invalid("a line that is not a JSON object"))
        #expect(Self.decode("[1,2]") == .invalid("a line that is not a JSON object"))
        #expect(Self.decode(#"{"id":"x","result":1}"#) == .invalid("a reply without a numeric id"))
        #expect(Self.decode(#"{"result":1}"#) == .invalid("a reply without a numeric id"))
        #expect(
            Self.decode(#"{"id":1,"method":"server.ping","params":[]}"#)
                == .invalid("the server sent a request (server.ping)")
        )
    }

    @Test func theHarnessSplitsAStreamIntoLinesAndStopsAtTheCap() {
        let stream = #"{"id":1,"result":1}"# + "\n" + #"{"method":"x","params":[]}"# + "\npartial"
        #expect(ElectrumMessage.fuzz(Array(stream.utf8)) == 2)
        // A line past the 4,096-byte cap is refused, not truncated: nothing after it is read.
        let long = String(repeating: "a", count: 5_000) + "\n" + #"{"id":1,"result":1}"# + "\n"
        #expect(ElectrumMessage.fuzz(Array(long.utf8)) == 0)
    }
}
