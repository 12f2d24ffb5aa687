import ServiceLifecycle

/// Mines one block every `interval` until graceful shutdown.
struct BlockTimer: Service {
    let world: SimnetWorld
    let interval: Duration

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { [world, interval] in
                while true {
                    try await Task.sleep(for: interval)
                    _ = try? world.mine(count: 1)
                }
            }
        } catch is CancellationError {
            // Shutdown cancels the wait; that is a clean stop.
        }
    }
}
