import Foundation
import Testing
import WatcherCore

/// BTC/kvB text to sat/vB and back, exactly.
@Suite struct FeeRateTests {
    @Test(arguments: [
        ("0.00012299", "12.299"), ("0.00001", "1"), ("0.000125", "12.5"), ("1.2e-4", "12"), ("-1", "-100000"),
        ("0", "0"), ("0.123456789012", "12345.6789012"),
    ])
    func btcPerKvBTextIsSatPerVByteExactly(text: String, expected: String) {
        #expect(FeeRate.satPerVB(btcPerKvB: text) == Decimal(string: expected)!)
    }

    @Test(arguments: ["0.1x", "", "abc", ".5", "1.", "0x10", " 1", "1e", "+1"])
    func partialOrForeignTextIsNoRate(text: String) {
        #expect(FeeRate.satPerVB(btcPerKvB: text) == nil)
    }

    @Test(arguments: [
        ("12.5", "0.00012500"), ("10", "0.00010000"), ("0.001", "0.00000001"), ("0.0005", "0.00000001"),
        ("0.00049", "0.00000000"), ("7.0004999", "0.00007000"), ("123456.789", "1.23456789"),
    ])
    func satPerVByteIsWrittenAsBTCPerKvBRoundedHalfUpToWholeSatPerKvB(rate: String, expected: String) {
        #expect(FeeRate.btcPerKvBText(satPerVB: Decimal(string: rate)!) == expected)
    }

    @Test func aNegativeOrAbsurdRateHasNoText() {
        #expect(FeeRate.btcPerKvBText(satPerVB: -1) == nil)
        #expect(FeeRate.btcPerKvBText(satPerVB: Decimal(string: "1e13")!) == nil)
        #expect(FeeRate.satPerKvB(Decimal(string: "2100000000000")!) == 2_100_000_000_000_000)
    }
}
