import Testing
import WatcherCore

struct DurationConfigTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)), ("30s", .seconds(30)), ("5m", .seconds(300)), ("1h", .seconds(3600)),
        ("2d", .seconds(172_800)), ("0", .zero),
    ])
    func parses(_ text: String, _ expected: Duration) {
        #expect(Duration(configText: text) == expected)
    }

    @Test(arguments: ["", "5", "1.5s", "-1s", "s", "5 m", "5M", "10y", "99999999999999s"])
    func rejects(_ text: String) {
        #expect(Duration(configText: text) == nil)
    }

    @Test func formatsShortest() {
        #expect(Duration.seconds(300).configText == "5m")
        #expect(Duration.milliseconds(1500).configText == "1500ms")
        #expect(Duration.seconds(7200).configText == "2h")
        #expect(RateLimit(shortText: "20/1m") == RateLimit(requests: 20, per: .seconds(60), burst: 20))
        #expect(RateLimit(shortText: "20/x") == nil)
    }
}
