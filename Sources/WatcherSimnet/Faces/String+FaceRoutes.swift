extension String {
    /// The rest of the string after `prefix`, `nil` if it does not start with it.
    func suffix(after prefix: String) -> Substring? {
        hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
    }
}

extension [String: Substring] {
    /// An integer query parameter; `nil` when absent or not a number.
    func int(_ key: String) -> Int? {
        self[key].flatMap { Int($0) }
    }
}
