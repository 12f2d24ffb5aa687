/// Suggests the closest known key for a misspelled one.
package enum Spelling {
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The closest candidate within a small edit distance, if any.
    package static func suggestion(for key: String, among candidates: [String]) -> String? {
        let limit = max(2, key.count / 3)
        return candidates.map { ($0, distance(key, $0)) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }
}
