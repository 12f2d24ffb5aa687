/// Date and time text for the feeds' timestamp fields, computed from unix seconds in UTC without
/// Foundation's locale- and time-zone-dependent formatters.
enum CalendarText {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    struct Civil {
        var year: Int
        var month: Int  // 1...12
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
    }

    /// Splits unix seconds into a UTC calendar date and time (Howard Hinnant's civil_from_days).
    static func civil(_ unix: Int64) -> Civil {
        let days = Int(unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400)
        let secondsOfDay = Int(unix - Int64(days) * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Civil(
            year: year,
            month: month,
            day: day,
            hour: secondsOfDay / 3600,
            minute: secondsOfDay / 60 % 60,
            second: secondsOfDay % 60
        )
    }

    /// Days since 1970-01-01 of a calendar date (days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// RFC 3339 in UTC with nanoseconds, as Go prints Blockbook's times: `2024-09-10T08:19:04.471017534Z`.
    static func rfc3339Nano(_ unix: Double) -> String {
        let seconds = Int64(unix.rounded(.down))
        let nanos = Int(((unix - Double(seconds)) * 1e9).rounded(.down))
        var text = rfc3339(seconds, suffix: "")
        if nanos > 0 {
            var fraction = pad(nanos, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// `2021-09-30T11:48:00` followed by `suffix`.
    static func rfc3339(_ unix: Int64, suffix: String) -> String {
        let c = civil(unix)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):"
            + "\(pad(c.second, 2))\(suffix)"
    }

    /// CoinDesk's `updated`: `Sep 30, 2021 11:48:00 UTC`.
    static func coinDeskUpdated(_ unix: Int64) -> String {
        let c = civil(unix)
        return
            "\(months[c.month - 1]) \(c.day), \(c.year) \(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2)) UTC"
    }

    /// CoinDesk's `updateduk`: UK local time without seconds, `Sep 30, 2021 at 12:48 BST`.
    static func coinDeskUpdatedUK(_ unix: Int64) -> String {
        let summer = isBritishSummerTime(unix)
        let c = civil(unix + (summer ? 3600 : 0))
        let zone = summer ? "BST" : "GMT"
        return "\(months[c.month - 1]) \(c.day), \(c.year) at \(pad(c.hour, 2)):\(pad(c.minute, 2)) \(zone)"
    }

    /// BST runs from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
    static func isBritishSummerTime(_ unix: Int64) -> Bool {
        let year = civil(unix).year
        func lastSunday(_ month: Int) -> Int64 {
            let lastDay = days(year: year, month: month, day: 31)
            let weekday = ((lastDay % 7) + 11) % 7  // 0 = Sunday; 1970-01-01 was a Thursday
            return Int64(lastDay - weekday) * 86_400 + 3600
        }
        return unix >= lastSunday(3) && unix < lastSunday(10)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
