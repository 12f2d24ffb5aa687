import Synchronization
import WatcherCore

/// What the provider remembers between calls: the last block read (its pages are cut from it, so page 2 costs no
/// request), and in which recent block each transaction sat, the hint `getrawtransaction` needs on a node without
/// `-txindex`.
final class BitcoindCache: Sendable {
    /// Blocks whose txids are kept as hints.
    static let hintBlocks = 12

    private struct State {
        var lastBlock: (hash: String, transactions: [ChainTransaction])?
        var hints: [String: String] = [:]
        var hintOrder: [(hash: String, txids: [String])] = []
    }

    private let state = Mutex(State())

    /// The transactions of `hash`, when it is the last block read.
    func transactions(of hash: String) -> [ChainTransaction]? {
        state.withLock { state in state.lastBlock.flatMap { $0.hash == hash ? $0.transactions : nil } }
    }

    /// Keeps `transactions` as the last block read, and their txids as hints.
    func store(_ transactions: [ChainTransaction], of hash: String) {
        state.withLock { state in
            state.lastBlock = (hash, transactions)
            guard !state.hintOrder.contains(where: { $0.hash == hash }) else { return }
            let txids = transactions.map(\.txid)
            for txid in txids { state.hints[txid] = hash }
            state.hintOrder.append((hash, txids))
            while state.hintOrder.count > Self.hintBlocks {
                let dropped = state.hintOrder.removeFirst()
                for txid in dropped.txids where state.hints[txid] == dropped.hash { state.hints[txid] = nil }
            }
        }
    }

    /// The block `txid` was seen in, if it was one of the recent blocks read.
    func blockHash(of txid: String) -> String? { state.withLock { $0.hints[txid] } }
}
