import Foundation

/// Reads HTTP dates (RFC 9110 §5.6.7), for `Retry-After` and `Date` headers, with formatters made once.
package enum HTTPDate {
    /// IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`: what servers send.
    private static let imfFixdate = formatter("EEE, dd MMM yyyy HH:mm:ss zzz")
    /// The obsolete forms a recipient must still read: RFC 850 and asctime.
    private static let obsolete = [formatter("EEEE, dd-MMM-yy HH:mm:ss zzz"), formatter("EEE MMM d HH:mm:ss yyyy")]

    /// The date `text` names, or `nil`.
    /// - Parameter obsoleteForms: whether to read the RFC 850 and asctime forms too.
    package static func parse(_ text: String, obsoleteForms: Bool = true) -> Date? {
        if let date = imfFixdate.date(from: text) { return date }
        guard obsoleteForms else { return nil }
        for formatter in obsolete {
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
