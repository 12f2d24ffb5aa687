import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGHUP from the first statement of `main` until the daemon's own signal source takes it over: a hangup
/// (`systemctl reload`, `watcher reload`) that arrives while the process starts never ends it.
///
/// ``close()`` blocks SIGHUP on the main thread before any other thread exists, so every thread the process makes
/// inherits the block, and installs a handler that only counts. Blocking alone is not enough: once `main` awaits,
/// the main thread waits in `dispatch_main()`'s `sigsuspend` with every signal unblocked, and SIGHUP's default
/// action would end the process there (measured: exit 129). The handler runs on that idle thread only.
///
/// The daemon reads the count twice: before it loads the config (a hangup then has nothing to reload: it is logged
/// and dropped) and once its own SIGHUP source is registered (a hangup after the load is applied as a reload). The
/// other commands give SIGHUP its default action back with ``open()``.
public enum HangupGate {
    /// Hangups counted by the handler and not yet taken.
    private static let received = Atomic<Int>(0)

    /// Blocks SIGHUP on the calling thread and counts it from now on. The first statement of `main.swift`; calling
    /// it again changes nothing.
    public static func close() {
        _ = received.load(ordering: .relaxed)  // initialized before the handler can read it
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in HangupGate.received.add(1, ordering: .relaxed) }
        #else
            action.__sigaction_u.__sa_handler = { _ in HangupGate.received.add(1, ordering: .relaxed) }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGHUP, &action, nil)
    }

    /// The hangups counted since the last call (0 when none came).
    static func take() -> Int { received.exchange(0, ordering: .relaxed) }

    /// SIGHUP's default action back, for the commands that are no daemon: a terminal's hangup ends them. One that
    /// came while the command started ends it now, as it would have then.
    static func open() {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = SIG_DFL
        #else
            action.__sigaction_u.__sa_handler = SIG_DFL
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(SIGHUP, &action, nil)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        if take() > 0 { kill(getpid(), SIGHUP) }
    }
}
