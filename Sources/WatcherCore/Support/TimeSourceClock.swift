/// A ``TimeSource``'s monotonic side as a `Clock`, for the components that are generic over one (the scheduler):
/// built from the source the rest of the runtime reads, it follows the same clock, so a scheduler, the engine it
/// serves and the delivery around them never disagree about when now is.
public struct TimeSourceClock: Clock, Sendable {
    /// A point on the source's monotonic time: the duration since the source was made.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the source's origin.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// The source.
    public let time: TimeSource

    /// A clock over `time`.
    public init(_ time: TimeSource) { self.time = time }

    public var now: Instant { Instant(offset: time.elapsed) }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await time.sleep(until: deadline.offset)
    }
}
