import Synchronization

/// A flag that is set once and read from any task.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Whether it is set.
    var isSet: Bool { value.load(ordering: .acquiring) }

    /// Sets it.
    func set() { value.store(true, ordering: .releasing) }
}
