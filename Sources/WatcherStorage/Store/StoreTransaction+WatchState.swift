import Foundation

extension StoreTransaction {
    /// A watch's private state (price levels and windows, tx progress), decoded as `T`.
    public func watchState<T: Decodable>(_ type: T.Type, watch: String) throws -> T? {
        try value(type, tables.watchState, Keys.text(watch))
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Stores a watch's private state.
    public func putWatchState<T: Encodable>(_ state: T, watch: String) throws {
        try put(tables.watchState, Keys.text(watch), state)
    }
}
