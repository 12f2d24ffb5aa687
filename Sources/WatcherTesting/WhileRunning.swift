import Logging
import ServiceLifecycle

/// Runs `service` in a `ServiceGroup` while `body` runs, then shuts it down gracefully and waits for it. When `body`
/// throws, the service is shut down as well and the error rethrown.
///
/// ```swift
/// try await whileRunning(deliveryService) {
///     try await eventually(timeout: .seconds(15), "the cursor at 5") { try cursor(store, "hook") == 5 }
/// }
/// ```
package func whileRunning<T: Sendable>(
    _ service: some Service,
    _ body: @Sendable () async throws -> T
) async throws -> T {
    let logger = Logger(label: "watcher.tests.service-group") { _ in SwiftLogNoOpLogHandler() }
    let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        do {
            let result = try await body()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            throw error
        }
    }
}
