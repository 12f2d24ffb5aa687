import Testing
import WatcherCore
import WatcherJSON

struct JSONValueTests {
    @Test func keepsOrderDuplicatesAndExactNumbers() throws {
        let value = try JSONValue.parse(
            #"{"b": 1, "a": 0.1000000000000000055511151231257827, "b": [true, null, "x\u00e9\n"]}"#
        )
        #expect(value.members?.map(\.key) == ["b", "a", "b"])
        #expect(value["a"] == .number("0.1000000000000000055511151231257827"))
        #expect(value.members?.last?.value == .array([.bool(true), .null, .string("xé\n")]))
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test(arguments: [
        ("{\"a\": }", "line 1, column 7: unexpected character '}'"),
        ("[1,\n 2,\n ]", "line 3, column 2: unexpected character ']'"),
        ("{\"a\": 01}", "line 1, column 7: leading zero in number"),
        ("\"abc", "line 1, column 1: unterminated string"),
        ("{} x", "line 1, column 4: unexpected text after the JSON value"),
        ("[\"\\q\"]", "line 1, column 3: invalid escape in string"),
    ])
    func reportsPosition(_ text: String, _ message: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func rejectsDeepNesting() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deep) }
    }
}
