import WatcherBitcoin

/// Scripthash → address for every address the chain knows. The chain's address book only grows, so a miss
/// indexes the addresses added since the last one and looks again.
struct ScripthashBook: Sendable {
    private var addresses: [String: String] = [:]
    private var indexed: Set<String> = []

    /// The address whose script hashes to `scripthash`, `nil` when the chain has never seen it.
    mutating func address(_ scripthash: String, in chain: ChainModel) -> String? {
        if let known = addresses[scripthash] { return known }
        guard indexed.count != chain.book.count else { return nil }
        for (text, address) in chain.book where !indexed.contains(text) {
            indexed.insert(text)
            addresses[ElectrumHash.scripthash(scriptPubKey: address.scriptPubKey)] = text
        }
        return addresses[scripthash]
    }
}
