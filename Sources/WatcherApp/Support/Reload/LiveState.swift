import Synchronization
import WatcherConfiguration

/// The config and providers in force now: what the status server's account actions and `/metrics` read, replaced by
/// a reload.
final class LiveState: Sendable {
    private let current: Mutex<ProviderSession>

    init(_ session: ProviderSession) { current = Mutex(session) }

    /// The config in force.
    var config: WatcherConfig { current.withLock { $0.config } }

    /// The daemon's providers and scheduler, with the config in force.
    var session: ProviderSession { current.withLock { $0 } }

    /// Replaces both after a reload.
    func update(_ session: ProviderSession) { current.withLock { $0 = session } }
}
