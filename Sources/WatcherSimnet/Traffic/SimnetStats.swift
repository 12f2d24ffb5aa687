import WatcherCore
import WatcherJSON

/// Request statistics per provider family plus a log of recent requests (`GET /control/stats`).
public struct SimnetStats: Sendable, Hashable {
    /// Counters of one family.
    public struct Family: Sendable, Hashable {
        /// Requests received, including rate-limited ones.
        public var requests = 0
        /// Requests answered 429.
        public var rateLimited = 0
        /// Requests given an injected fault.
        public var faults = 0
        /// Requests per endpoint, keyed like `/api/v2/address`.
        public var endpoints: [String: Int] = [:]
    }

    /// One logged request.
    public struct LogEntry: Sendable, Hashable {
        /// When it arrived, unix seconds (fractional).
        public let t: Double
        /// The family.
        public let family: ProviderFamily
        /// The request path (without query).
        public let path: String
        /// The status answered.
        public let status: Int
        /// The `Retry-After` seconds of a 429.
        public let retryAfter: Int?
        /// The injected fault, if any.
        public let fault: FaultConfiguration.Kind?
    }

    /// The most log entries kept.
    public static let logCapacity = 10_000

    /// Counters per family (every family present).
    public internal(set) var families: [ProviderFamily: Family]
    private var ring: [LogEntry] = []
    private var ringStart = 0

    init() {
        families = Dictionary(uniqueKeysWithValues: ProviderFamily.allCases.map { ($0, Family()) })
    }

    /// The last requests, oldest first (at most ``logCapacity``).
    public var log: [LogEntry] {
        Array(ring[ringStart...] + ring[..<ringStart])
    }

    mutating func append(_ entry: LogEntry) {
        if ring.count < Self.logCapacity {
            ring.append(entry)
        } else {
            ring[ringStart] = entry
            ringStart = (ringStart + 1) % Self.logCapacity
        }
    }

    /// The control API's JSON form.
    var json: JSONValue {
        let families: [JSONValue.Member] = ProviderFamily.allCases.map { family in
            let counters = self.families[family] ?? Family()
            let endpoints = counters.endpoints.sorted { $0.key < $1.key }.map {
                JSONValue.Member($0.key, .integer($0.value))
            }
            return .init(
                family.rawValue,
                .object([
                    .init("requests", .integer(counters.requests)),
                    .init("rateLimited", .integer(counters.rateLimited)),
                    .init("faults", .integer(counters.faults)),
                    .init("endpoints", .object(endpoints)),
                ])
            )
        }
        let log: [JSONValue] = self.log.map { entry in
            var object = JSONObjectBuilder()
            object.add("t", .number(format3(entry.t)))
            object.add("family", .string(entry.family.rawValue))
            object.add("path", .string(entry.path))
            object.add("status", .integer(entry.status))
            object.add("retryAfter", ifPresent: entry.retryAfter.map { .integer($0) })
            object.add("fault", ifPresent: entry.fault.map { .string($0.rawValue) })
            return object.value
        }
        return .object([.init("families", .object(families)), .init("log", .array(log))])
    }

    /// Unix seconds with millisecond precision as a JSON number literal.
    private func format3(_ seconds: Double) -> String {
        let millis = Int64((seconds * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
