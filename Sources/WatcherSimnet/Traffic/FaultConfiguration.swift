/// Which failures to inject into one provider family's answers, and how often.
public struct FaultConfiguration: Sendable, Hashable {
    /// A kind of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// An HTTP 5xx with the family's real error body (500 unless ``FaultConfiguration/statuses`` says otherwise).
        case serverError = "500"
        /// The request is held for ``FaultConfiguration/timeout`` (far beyond any client budget), then answered 504.
        case timeout
        /// HTTP 200 whose body is not JSON (an HTML error page).
        case malformed
        /// HTTP 200 whose body is the real body cut in half (correctly framed, so the JSON is incomplete).
        case truncated
        /// Headers at once, then the real body trickled out over ``FaultConfiguration/slowDuration``.
        case slow
        /// HTTP 200 with valid JSON of the wrong shape (for Blockbook: its status JSON).
        case wrongShape = "wrongshape"
    }

    /// Probability in `0...1` that a request gets a fault.
    public var rate: Double
    /// The kinds to choose from, uniformly.
    public var kinds: [Kind]
    /// Status codes for ``Kind/serverError``, chosen uniformly; empty means `[500]`.
    public var statuses: [Int]
    /// How long ``Kind/timeout`` holds a request.
    public var timeout: Duration
    /// Over how long ``Kind/slow`` spreads the body.
    public var slowDuration: Duration

    /// Creates a fault configuration.
    public init(
        rate: Double,
        kinds: [Kind] = Kind.allCases,
        statuses: [Int] = [],
        timeout: Duration = .seconds(300),
        slowDuration: Duration = .seconds(5)
    ) {
        self.rate = min(max(rate, 0), 1)
        self.kinds = kinds.isEmpty ? Kind.allCases : kinds
        self.statuses = statuses.filter { (500...599).contains($0) }
        self.timeout = timeout
        self.slowDuration = slowDuration
    }
}
