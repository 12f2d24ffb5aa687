import WatcherJSON

extension RateLimit {
    /// The config form: `{"requests": 20, "per": "1m", "burst": 20, "concurrency": 4}`. Unlimited
    /// (`requests: 0`) has no period or burst to show: `{"requests": 0, "concurrency": 4}`.
    public var json: JSONValue {
        guard requests > 0 else {
            return .object([
                .init("requests", .number("0")),
                .init("concurrency", .number("\(concurrency)")),
            ])
        }
        return .object([
            .init("requests", .number("\(requests)")),
            .init("per", .string(per.configText)),
            .init("burst", .number("\(burst)")),
            .init("concurrency", .number("\(concurrency)")),
        ])
    }
}

extension ObjectReader {
    /// A rate limit object; missing fields fall back to `default`'s.
    public func rateLimit(_ key: String, default fallback: RateLimit, doc: String) -> RateLimit {
        let value = raw(key, type: "rateLimit", default: fallback.json, doc: doc)
        guard value != nil else {
            show(key, fallback.json)
            return fallback
        }
        let reader = ObjectReader(value, at: path.key(key), context: context)
        let requests = reader.int(
            "requests",
            default: fallback.requests,
            range: 0...1_000_000,
            doc: "Requests per period; 0 = unlimited."
        )
        let per = reader.duration("per", default: fallback.per, minimum: .milliseconds(1), doc: "The period.")
        let burst = reader.int("burst", default: requests, range: 1...1_000_000, doc: "Bucket size.")
        let concurrency = reader.int(
            "concurrency",
            default: fallback.concurrency,
            range: 1...64,
            doc: "Requests in flight."
        )
        reader.finish()
        let limit = RateLimit(
            requests: requests,
            per: per,
            burst: max(1, burst),
            concurrency: concurrency
        )
        show(key, limit.json)
        return limit
    }
}
