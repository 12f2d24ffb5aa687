/// A job the engine runs beside its own that reads and writes the store and asks no provider: payment requests kept
/// current from what the other jobs committed (`WatcherRequests`' `RequestJob`). The engine gives it the loop its
/// own jobs have (a fixed schedule, a failure logged when it changes) and runs it with the jobs that are not push
/// jobs, so a reload stops and starts it with them.
package protocol LocalJob: Sendable {
    /// The name its rounds are logged under.
    var name: String { get }
    /// How often a round starts.
    var every: Duration { get }
    /// One round.
    func round() async throws
}
