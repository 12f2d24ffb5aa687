/// What ``eventually(timeout:_:_:)`` throws when its condition does not hold by the deadline.
public struct TimedOut: Error, CustomStringConvertible {
    /// What was waited for, as the caller described it.
    public let what: String

    /// Creates the error for a wait on `what`.
    public init(what: String) { self.what = what }

    public var description: String { "timed out waiting for \(what)" }
}

/// Waits until `condition` holds, or throws ``TimedOut`` once `timeout` has passed: the wait is on the condition,
/// never on a guessed delay. The condition is checked at once, then again after 5 ms, and after each check the pause
/// doubles up to 50 ms, so a quick condition is seen quickly and a slow one (a request, a process) is not hammered.
///
/// ```swift
/// try await eventually(timeout: .seconds(30), "the cursor at 5") { try cursor(store, "hook") == 5 }
/// ```
public func eventually(
    timeout: Duration = .seconds(60),
    _ what: String,
    _ condition: () async throws -> Bool
) async throws {
    _ = try await eventuallyValue(timeout: timeout, what) { try await condition() ? true : nil }
}

/// ``eventually(timeout:_:_:)`` for a value: polls `produce` the same way until it gives one, and returns it.
///
/// ```swift
/// let store = try await eventuallyValue(timeout: .seconds(30), "the store") { try? Store(path: path) }
/// ```
public func eventuallyValue<T>(
    timeout: Duration = .seconds(60),
    _ what: String,
    _ produce: () async throws -> T?
) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(5)
    while true {
        if let value = try await produce() { return value }
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
}
