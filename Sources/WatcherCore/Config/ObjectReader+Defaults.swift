// The accessors with a default: they return the value, never `nil`. A missing key gives the default; a bad value
// is recorded as a config error at its path (so loading fails) and the default stands in for it meanwhile, so a
// caller states its default once.
extension ObjectReader {
    /// A string option with a default.
    public func string(_ key: String, default: String, doc: String) -> String {
        string(key, default: Optional(`default`), doc: doc) ?? `default`
    }

    /// One of `allowed` strings, with a default.
    public func choice(_ key: String, _ allowed: [String], default: String, doc: String) -> String {
        choice(key, allowed, default: Optional(`default`), doc: doc) ?? `default`
    }

    /// An integer within `range`, with a default.
    public func int(_ key: String, default: Int, range: ClosedRange<Int> = Int.min...Int.max, doc: String) -> Int {
        int(key, default: Optional(`default`), range: range, doc: doc) ?? `default`
    }

    /// A duration with a default.
    public func duration(_ key: String, default: Duration, minimum: Duration = .zero, doc: String) -> Duration {
        duration(key, default: Optional(`default`), minimum: minimum, doc: doc) ?? `default`
    }

    /// An http(s) URL with a default.
    public func url(_ key: String, default: String, schemes: [String] = ["http", "https"], doc: String) -> String {
        url(key, default: Optional(`default`), schemes: schemes, doc: doc) ?? `default`
    }
}
