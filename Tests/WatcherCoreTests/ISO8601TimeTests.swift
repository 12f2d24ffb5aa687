import Foundation
import Testing

@testable import WatcherJSON

/// Event times are written with integer arithmetic, not the formatter: the two must agree to the character, on
/// dates across the range a watcher meets (and leap days, year ends, the epoch, times before it).
struct ISO8601TimeTests {
    @Test func theFastPathWritesWhatTheFormatterWrites() {
        var random = SystemRandomNumberGenerator()
        var dates = [
            0, -1, -0.0005, 0.9999, 0.0625, 0.1875, -0.0625, -0.1875, 1_800_000_000.0625, -6_453_713_319.5805,
            951_782_400, 951_868_799.999, 1_709_164_800.5, 1_735_689_599.999,
            4_102_444_800, -2_208_988_800, 253_402_300_798.999, -11_676_096_000 + 0.001, -62_135_596_800 + 0.001,
        ].map { Date(timeIntervalSince1970: $0) }
        for _ in 0..<20_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -1.1e10...2.5e11, using: &random)))
        }
        for date in dates {
            #expect(
                ISO8601Time.stringWithMilliseconds(date) == ISO8601Time.formattedWithMilliseconds(date),
                "\(date.timeIntervalSince1970)"
            )
        }
    }
}
