import Foundation
import WatcherCore
import WatcherJSON

/// The recorded bodies in `Fixtures/` (copied from the project's shared fixtures; see `Fixtures/SOURCES.md`).
enum Fixtures {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture not found: \(path)" }
    }

    /// The text of `Fixtures/<path>`, from the test bundle.
    static func text(_ path: String) throws -> String {
        guard let base = Bundle.module.resourceURL else { throw Missing(path: path) }
        let url = base.appendingPathComponent("Fixtures").appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw Missing(path: path) }
        return String(decoding: data, as: UTF8.self)
    }

    /// `Fixtures/<path>` parsed as JSON, numbers kept as text.
    static func json(_ path: String) throws -> JSONValue {
        try JSONValue.parse(text(path))
    }

    /// Each line of a `.jsonl` fixture, parsed.
    static func jsonLines(_ path: String) throws -> [JSONValue] {
        try text(path).split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }
}

/// Converts a BTC amount written as decimal text (`"0.06990000"`, `"8.49029534"`, `"0.0856647"`) to
/// satoshi from its digits alone; `nil` for a sign, an exponent or more than 8 decimals.
func satoshis(fromBTC text: String) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty,
        whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber), let coins = Int64(whole)
    else { return nil }
    var fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.count <= 8, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    fraction += String(repeating: "0", count: 8 - fraction.count)
    guard let small = Int64(fraction) else { return nil }
    let (scaled, overflow) = coins.multipliedReportingOverflow(by: 100_000_000)
    guard !overflow else { return nil }
    return scaled + small
}
