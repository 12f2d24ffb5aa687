/// One `scantxoutset` at a time per provider: Core runs one scan at a time and answers a second with "Scan already
/// in progress", so the watcher's own scans (an address watch's, a wallet's, the accounts') wait their turn.
actor BitcoindScanGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once no other scan of this provider runs.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
