import WatcherCore

/// The confirmed, unspent outputs owned by funded addresses: what random and control
/// transactions may spend. An array plus an index gives O(1) insert, remove and random pick,
/// in an order that depends only on the sequence of operations (never on hashing).
struct SpendablePool: Sendable {
    private(set) var items: [SimOutpoint] = []
    private var index: [SimOutpoint: Int] = [:]

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }

    mutating func insert(_ outpoint: SimOutpoint) {
        guard index[outpoint] == nil else { return }
        index[outpoint] = items.count
        items.append(outpoint)
    }

    mutating func remove(_ outpoint: SimOutpoint) {
        guard let position = index.removeValue(forKey: outpoint) else { return }
        let last = items.removeLast()
        if position < items.count {
            items[position] = last
            index[last] = position
        }
    }

    /// Removes and returns a random element.
    mutating func takeRandom(using rng: inout SplitMixRandom) -> SimOutpoint? {
        guard !items.isEmpty else { return nil }
        let picked = items[rng.next(below: items.count)]
        remove(picked)
        return picked
    }
}
