import Foundation
import WatcherCore

/// Followed wallets: their state, the script index their block scan matches against, and the addresses handed
/// out.
///
/// The script index maps `<chain>/<scriptPubKey bytes>` to a 6-byte-plus value: the branch (1 byte), the index
/// (UInt32 big-endian), then the wallet id (UTF-8). A block is matched by one lookup per output and per input (by
/// its prevout's script), whatever the number of wallets, and the index lives in the memory map, not the heap.
extension StoreTransaction {
    /// A wallet's state.
    public func walletState(chain: String, wallet: String) throws -> WalletState? {
        guard let table = tables.wallets else { return nil }
        return try value(WalletState.self, table, Keys.text(chain, wallet))
    }

    /// Every wallet state of `chain`, in wallet id order.
    public func walletStates(chain: String) throws -> [WalletState] {
        guard let table = tables.wallets else { return [] }
        return try values(WalletState.self, table, prefix: Keys.chainPrefix(chain), limit: .max)
    }

    /// Where the address paying to `script` sits, if it is in a wallet's window.
    public func walletScript(chain: String, script: [UInt8]) throws -> WalletAddressRef? {
        guard let table = tables.walletScripts else { return nil }
        return try txn.withValue(table, Keys.chainPrefix(chain) + script) { Self.decodeScriptRef($0) } ?? nil
    }

    /// Looks up many scripts in one transaction: the refs of those in the index, by position in `scripts`.
    public func walletScripts(chain: String, _ scripts: [[UInt8]]) throws -> [Int: WalletAddressRef] {
        guard let table = tables.walletScripts else { return [:] }
        let prefix = Keys.chainPrefix(chain)
        var key = prefix
        var result: [Int: WalletAddressRef] = [:]
        for (position, script) in scripts.enumerated() {
            key.removeSubrange(prefix.count...)
            key.append(contentsOf: script)
            if let ref = try txn.withValue(table, key, { Self.decodeScriptRef($0) }) ?? nil {
                result[position] = ref
            }
        }
        return result
    }

    /// The number of scripts in the index (all chains).
    public func walletScriptCount() throws -> Int {
        guard let table = tables.walletScripts else { return 0 }
        return try txn.count(table)
    }

    /// The addresses handed out of `wallet`, by index.
    public func issuedAddresses(chain: String, wallet: String) throws -> [IssuedAddress] {
        guard let table = tables.walletIssued else { return [] }
        return try values(IssuedAddress.self, table, prefix: Array("\(chain)/\(wallet)/".utf8), limit: .max)
    }

    /// The newest `limit` addresses handed out of `wallet`, newest first.
    public func newestIssuedAddresses(chain: String, wallet: String, limit: Int) throws -> [IssuedAddress] {
        guard let table = tables.walletIssued else { return [] }
        return try values(
            IssuedAddress.self,
            table,
            prefix: Array("\(chain)/\(wallet)/".utf8),
            reverse: true,
            limit: limit
        )
    }

    /// The address handed out of `wallet` at receive index `index`, if it was.
    public func issuedAddress(chain: String, wallet: String, index: Int) throws -> IssuedAddress? {
        guard let table = tables.walletIssued else { return nil }
        return try value(IssuedAddress.self, table, Self.issuedKey(chain: chain, wallet: wallet, index: index))
    }

    static func issuedKey(chain: String, wallet: String, index: Int) -> [UInt8] {
        Array("\(chain)/\(wallet)/".utf8) + UInt32(clamping: index).bigEndianBytes
    }

    static func decodeScriptRef(_ bytes: UnsafeRawBufferPointer) -> WalletAddressRef? {
        guard bytes.count > 5, let branch = WalletBranch(number: bytes[0]) else { return nil }
        let index = bytes[1..<5].reduce(0) { $0 << 8 | Int($1) }
        return WalletAddressRef(wallet: String(decoding: bytes[5...], as: UTF8.self), branch: branch, index: index)
    }

    static func encodeScriptRef(_ ref: WalletAddressRef) -> [UInt8] {
        [ref.branch.number] + UInt32(clamping: ref.index).bigEndianBytes + Array(ref.wallet.utf8)
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Stores a wallet's state.
    public func putWalletState(_ state: WalletState) throws {
        try put(try table(tables.wallets), Keys.text(state.chain, state.wallet), state)
    }

    /// Adds a wallet address's script to the index.
    public func putWalletScript(chain: String, script: [UInt8], _ ref: WalletAddressRef) throws {
        try txn.put(try table(tables.walletScripts), Keys.chainPrefix(chain) + script, Self.encodeScriptRef(ref))
    }

    /// Removes a script from the index (its wallet is forgotten or derived differently now).
    public func removeWalletScript(chain: String, script: [UInt8]) throws {
        try txn.delete(try table(tables.walletScripts), Keys.chainPrefix(chain) + script)
    }

    /// Records an address handed out.
    public func putIssuedAddress(chain: String, _ issued: IssuedAddress) throws {
        let key = Self.issuedKey(chain: chain, wallet: issued.wallet, index: issued.index)
        try put(try table(tables.walletIssued), key, issued)
    }

    /// Forgets a wallet: its state, its issued addresses and its addresses' engine state. The caller removes its
    /// scripts (it knows them by deriving them).
    public func removeWallet(chain: String, wallet: String) throws {
        try txn.delete(try table(tables.wallets), Keys.text(chain, wallet))
        try txn.deleteAll(try table(tables.walletIssued), prefix: Array("\(chain)/\(wallet)/".utf8))
        for state in try addressStates(chain: chain) where state.wallet?.wallet == wallet {
            try txn.delete(tables.addresses, Keys.text(chain, state.address))
        }
    }

    private func table(_ table: Database?) throws -> Database {
        guard let table else { throw StorageError.writerStopped }
        return table
    }
}
