import Hummingbird
import Logging
import Synchronization

/// A Hummingbird responder served on `127.0.0.1` at a port the kernel picks: the one way the contract kit and the
/// tests start a loopback server, wait until it listens (or fail at once if it cannot), and stop it afterwards.
///
/// ```swift
/// try await LoopbackServer.with(MyResponder()) { port in
///     // http://127.0.0.1:\(port)/ answers until this closure returns
/// }
/// ```
public enum LoopbackServer {
    /// The server stopped, or never bound, before it listened.
    public struct NotListening: Error, CustomStringConvertible {
        /// Why.
        public var reason: String
        public var description: String { "the loopback server is not listening: \(reason)" }
    }

    /// Serves `responder` until `body` returns or throws; `body` gets the bound port.
    public static func with<Responder: HTTPResponder, T>(
        _ responder: Responder,
        logger: Logger = Logger(label: "watcher.tests.loopback") { _ in SwiftLogNoOpLogHandler() },
        _ body: (Int) async throws -> T
    ) async throws -> T where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let listening = Listening()
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in listening.bound(channel.localAddress?.port) },
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask {
                do {
                    try await app.run()
                    listening.stopped("the server finished")
                } catch {
                    listening.stopped("\(error)")
                }
            }
            do {
                let port = try await listening.port()
                let result = try await body(port)
                group.cancelAll()
                try await group.waitForAll()
                return result
            } catch {
                group.cancelAll()
                try? await group.waitForAll()
                throw error
            }
        }
    }

    /// Whether the server listens yet: waiters for the port are resumed when it binds, or fail when it stops.
    final class Listening: Sendable {
        private enum State {
            case waiting([CheckedContinuation<Int, any Error>])
            case bound(Int)
            case stopped(String)
        }

        private let state = Mutex<State>(.waiting([]))

        func port() async throws -> Int {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Int, any Error>? = state.withLock { state in
                    switch state {
                    case .waiting(let waiters):
                        state = .waiting(waiters + [continuation])
                        return nil
                    case .bound(let port): return .success(port)
                    case .stopped(let reason): return .failure(NotListening(reason: reason))
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        }

        func bound(_ port: Int?) {
            guard let port else { return stopped("no local port") }
            for waiter in settle(.bound(port)) { waiter.resume(returning: port) }
        }

        func stopped(_ reason: String) {
            for waiter in settle(.stopped(reason)) { waiter.resume(throwing: NotListening(reason: reason)) }
        }

        private func settle(_ new: State) -> [CheckedContinuation<Int, any Error>] {
            state.withLock { state in
                guard case .waiting(let waiters) = state else { return [] }
                state = new
                return waiters
            }
        }
    }
}
