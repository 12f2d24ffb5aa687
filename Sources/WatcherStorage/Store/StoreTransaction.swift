import Foundation
import WatcherCore

/// Typed access to the store's tables inside one transaction. Reads work in both kinds; writes need a
/// ``WriteTransaction``.
public struct StoreTransaction<Txn: TransactionReading> {
    /// The raw transaction.
    public let txn: Txn
    let tables: Tables

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], table: Database, key: [UInt8]) throws -> T {
        do {
            return try Self.decoder.decode(type, from: Data(bytes))
        } catch {
            throw StorageError.corruptValue(
                table: table.name,
                key: String(decoding: key, as: UTF8.self),
                detail: "\(error)"
            )
        }
    }

    func value<T: Decodable>(_ type: T.Type, _ table: Database, _ key: [UInt8]) throws -> T? {
        try txn.get(table, key).map { try decode(type, $0, table: table, key: key) }
    }

    func values<T: Decodable>(_ type: T.Type, _ table: Database, prefix: [UInt8], reverse: Bool = false, limit: Int)
        throws -> [T]
    {
        try txn.entries(table, prefix: prefix, reverse: reverse, limit: limit).map {
            try decode(type, $0.value, table: table, key: $0.key)
        }
    }

    // MARK: Reads

    /// The stored chain tip.
    public func tip(chain: String) throws -> BlockRef? {
        try value(BlockRef.self, tables.tips, Keys.text(chain))
    }

    /// The stored header at `height`.
    public func header(chain: String, height: Int) throws -> BlockHeader? {
        try value(BlockHeader.self, tables.headers, Keys.header(chain, height))
    }

    /// The stored header with `hash`, searching the recent window.
    public func header(chain: String, hash: String) throws -> BlockHeader? {
        try recentHeaders(chain: chain, limit: .max).first { $0.hash == hash.lowercased() }
    }

    /// Recent headers, newest first.
    public func recentHeaders(chain: String, limit: Int) throws -> [BlockHeader] {
        try values(BlockHeader.self, tables.headers, prefix: Keys.chainPrefix(chain), reverse: true, limit: limit)
    }

    /// One followed account.
    public func account(chain: String, address: String) throws -> Account? {
        try value(Account.self, tables.accounts, Keys.text(chain, address))
    }

    /// Followed accounts, in address order.
    public func accounts(chain: String? = nil) throws -> [Account] {
        try values(Account.self, tables.accounts, prefix: chain.map(Keys.chainPrefix) ?? [], limit: .max)
    }

    /// The engine's state for an address.
    public func addressState(chain: String, address: String) throws -> AddressState? {
        try value(AddressState.self, tables.addresses, Keys.text(chain, address))
    }

    /// The engine's state of every address of `chain`.
    public func addressStates(chain: String) throws -> [AddressState] {
        try values(AddressState.self, tables.addresses, prefix: Keys.chainPrefix(chain), limit: .max)
    }

    /// The latest price in `currency`.
    public func price(currency: String) throws -> PriceQuote? {
        try value(PriceQuote.self, tables.prices, Keys.text(currency.uppercased()))
    }

    /// All latest prices, by currency.
    public func prices() throws -> [PriceQuote] {
        try values(PriceQuote.self, tables.prices, prefix: [], limit: .max)
    }

    /// A sink's cursor: the last sequence it delivered (0 when it has delivered nothing).
    public func cursor(sink: String) throws -> UInt64 {
        try txn.get(tables.cursors, Keys.text(sink)).flatMap { UInt64(bigEndianBytes: $0) } ?? 0
    }

    /// All sink cursors.
    public func cursors() throws -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        for (key, value) in try txn.entries(tables.cursors) {
            result[String(decoding: key, as: UTF8.self)] = UInt64(bigEndianBytes: value)
        }
        return result
    }

    /// Dead letters, for one sink or all.
    public func deadLetters(sink: String? = nil) throws -> [DeadLetter] {
        try values(DeadLetter.self, tables.deadLetters, prefix: sink.map { Array("\($0)/".utf8) } ?? [], limit: .max)
    }
}
