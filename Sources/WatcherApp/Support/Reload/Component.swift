import Logging
import ServiceLifecycle
import Synchronization

/// One part of the runtime (the scheduler, the delivery, the engine) running in a service group of its own, so that a
/// reload can stop it gracefully and start its replacement while the rest runs on. An end it was not asked for
/// (a thrown error, or a return) is reported to `onFailure`, which stops the daemon.
final class Component: Sendable {
    let name: String
    private let group: ServiceGroup
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let stopping = StopFlag()

    /// Starts `service` as `name`.
    init(
        _ name: String,
        service: any Service,
        logger: Logger,
        onFailure: @escaping @Sendable (String, any Error) -> Void
    ) {
        self.name = name
        group = ServiceGroup(
            configuration: .init(
                services: [.named(service)],
                gracefulShutdownSignals: [],
                cancellationSignals: [],
                logger: logger
            )
        )
        let group = self.group
        let stopping = self.stopping
        // Detached: a task created here would inherit the supervisor's graceful shutdown (a task-local), and the
        // nested group would then stop on its own, in no order, as soon as the daemon shuts down. The supervisor
        // stops the parts itself, the engine first.
        task.withLock {
            $0 = Task.detached {
                do {
                    try await group.run()
                    if !stopping.isSet { onFailure(name, ComponentEnded(name: name)) }
                } catch {
                    if !stopping.isSet { onFailure(name, error) }
                }
            }
        }
    }

    /// Shuts it down gracefully and waits until it has stopped; cancels it when that takes longer than `grace`
    /// (a webhook in the middle of a slow request), so that a reload never hangs on one part.
    func stop(grace: Duration = .seconds(10)) async {
        stopping.set()
        await group.triggerGracefulShutdown()
        guard let running = task.withLock({ $0 }) else { return }
        await withTaskGroup(of: Void.self) { waiting in
            waiting.addTask { await running.value }
            waiting.addTask {
                guard (try? await Task.sleep(for: grace)) != nil else { return }
                running.cancel()
            }
            await waiting.next()
            waiting.cancelAll()
        }
        await running.value
    }

    /// Cancels it (the daemon's shutdown took too long).
    func cancel() {
        stopping.set()
        task.withLock { $0 }?.cancel()
    }
}

/// A part of the runtime returned although nobody stopped it.
struct ComponentEnded: Error, CustomStringConvertible {
    let name: String
    var description: String { "the \(name) stopped unexpectedly" }
}

/// Whether a component was asked to stop (so its end is not a failure).
final class StopFlag: Sendable {
    private let value = Mutex(false)

    /// Set once asked.
    var isSet: Bool { value.withLock { $0 } }

    /// Records the request.
    func set() { value.withLock { $0 = true } }
}
