import Foundation
import WatcherCore

extension StoreTransaction where Txn == WriteTransaction {
    func put<T: Encodable>(_ table: Database, _ key: [UInt8], _ value: T) throws {
        try txn.put(table, key, Array(try Self.encoder.encode(value)))
    }

    /// Stores the chain tip.
    public func setTip(chain: String, _ tip: BlockRef) throws {
        try put(tables.tips, Keys.text(chain), tip)
    }

    /// Stores a header and keeps only the newest `keep` headers of the chain.
    public func putHeader(chain: String, _ header: BlockHeader, keep: Int = 100) throws {
        try put(tables.headers, Keys.header(chain, header.height), header)
        let excess = try txn.entries(tables.headers, prefix: Keys.chainPrefix(chain), reverse: true, limit: .max)
            .dropFirst(keep)
        for entry in excess { try txn.delete(tables.headers, entry.key) }
    }

    /// Removes headers at and above `height` (a reorg replaced them).
    public func removeHeaders(chain: String, from height: Int) throws {
        try txn.deleteAll(tables.headers, prefix: Keys.chainPrefix(chain), upTo: nil, from: Keys.header(chain, height))
    }

    /// Adds or replaces a followed account.
    public func putAccount(_ account: Account) throws {
        try put(tables.accounts, Keys.text(account.chain, account.address), account)
    }

    /// Stops following an account added with `watcher accounts add`. Changes nothing when there is none.
    /// - Parameter keepingState: keep the address's engine state, because a config `address` watch still follows
    ///   the address; otherwise the state is forgotten with the account.
    /// - Returns: `false` when no such account was followed (and nothing was changed).
    @discardableResult
    public func removeAccount(chain: String, address: String, keepingState: Bool) throws -> Bool {
        guard try txn.delete(tables.accounts, Keys.text(chain, address)) else { return false }
        if !keepingState { try txn.delete(tables.addresses, Keys.text(chain, address)) }
        return true
    }

    /// Stores the engine's state for an address.
    public func putAddressState(_ state: AddressState) throws {
        try put(tables.addresses, Keys.text(state.chain, state.address), state)
    }

    /// Stores the latest price of its currency.
    public func putPrice(_ quote: PriceQuote) throws {
        try put(tables.prices, Keys.text(quote.currency.uppercased()), quote)
    }

    /// Moves a sink's cursor to `seq` (the last event it delivered or dead-lettered).
    public func setCursor(sink: String, _ seq: UInt64) throws {
        try txn.put(tables.cursors, Keys.text(sink), seq.bigEndianBytes)
    }

    /// Records a dead letter.
    public func putDeadLetter(_ letter: DeadLetter) throws {
        try put(tables.deadLetters, Keys.deadLetter(letter.sink, letter.seq), letter)
    }

    /// Removes a dead letter (it was replayed).
    public func removeDeadLetter(sink: String, seq: UInt64) throws {
        try txn.delete(tables.deadLetters, Keys.deadLetter(sink, seq))
    }
}
