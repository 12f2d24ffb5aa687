import WatcherCore

/// Matches a batch of transactions (a block's, a mempool batch) against the wallets' script index, extending the
/// gap windows as addresses are used and re-matching the same batch against the scripts just added until nothing
/// new matches: two payments in one block at indices 59 and 79 with a gap of 20 after 39 was used are both found,
/// whichever is checked first.
///
/// Pure: the index lookup and the derivation are passed in. Outputs match by their script, inputs by their
/// prevout's script, so a spend out of a wallet is found as well as a payment into it.
public enum WalletMatcher {
    /// An input or output as matching sees it: the script (nil when it has none, e.g. a coinbase input) and the
    /// value.
    public struct Endpoint: Sendable, Hashable {
        /// The scriptPubKey (of the prevout, for an input).
        public var script: [UInt8]?
        /// The value in satoshi.
        public var valueSat: Int64

        /// Creates an endpoint.
        public init(script: [UInt8]?, valueSat: Int64) {
            self.script = script
            self.valueSat = valueSat
        }
    }

    /// A transaction as matching sees it.
    public struct Tx: Sendable, Hashable {
        /// The txid.
        public var txid: String
        /// Inputs, by their prevout's script.
        public var inputs: [Endpoint]
        /// Outputs.
        public var outputs: [Endpoint]

        /// Creates a transaction.
        public init(txid: String, inputs: [Endpoint], outputs: [Endpoint]) {
            self.txid = txid
            self.inputs = inputs
            self.outputs = outputs
        }
    }

    /// One wallet address touched by one transaction.
    public struct Match: Sendable, Hashable {
        /// Where the address sits.
        public var ref: WalletAddressRef
        /// Its scriptPubKey.
        public var script: [UInt8]
        /// The transaction.
        public var txid: String
        /// Net effect on the address: outputs paying it minus inputs spending from it.
        public var deltaSat: Int64
    }

    /// A wallet's window and gap, as matching needs them.
    public struct Wallet: Sendable, Hashable {
        /// The branches' windows.
        public var windows: [WalletBranch: WalletState.Window]
        /// The gap.
        public var gap: Int

        /// Creates a wallet.
        public init(windows: [WalletBranch: WalletState.Window], gap: Int) {
            self.windows = windows
            self.gap = gap
        }
    }

    /// What a batch did.
    public struct Outcome: Sendable {
        /// The addresses touched, per transaction, in transaction order.
        public var matches: [Match]
        /// The wallets with their windows grown (used and derived).
        public var wallets: [String: Wallet]
        /// Scripts derived to grow the windows, to add to the index.
        public var derived: [(ref: WalletAddressRef, script: [UInt8])]
        /// How many times the batch was matched (1 when no window grew into a new match).
        public var passes: Int
    }

    /// Matches `txs`.
    /// - Parameters:
    ///   - wallets: the wallets followed, by id; index entries of other wallets are ignored.
    ///   - lookup: the script index: the refs of the scripts given, by position.
    ///   - derive: the script of an address.
    public static func match(
        _ txs: [Tx],
        wallets: [String: Wallet],
        lookup: ([[UInt8]]) throws -> [Int: WalletAddressRef],
        derive: (WalletAddressRef) throws -> [UInt8]
    ) throws -> Outcome {
        var wallets = wallets
        // Every endpoint with a script, flattened: (transaction, is an input, position within it).
        var slots: [(tx: Int, input: Bool, position: Int)] = []
        var scripts: [[UInt8]] = []
        for (t, tx) in txs.enumerated() {
            for (i, endpoint) in tx.inputs.enumerated() {
                guard let script = endpoint.script else { continue }
                slots.append((t, true, i))
                scripts.append(script)
            }
            for (o, endpoint) in tx.outputs.enumerated() {
                guard let script = endpoint.script else { continue }
                slots.append((t, false, o))
                scripts.append(script)
            }
        }
        var matched: [Int: WalletAddressRef] = [:]
        var found = try lookup(scripts).filter { wallets[$0.value.wallet]?.windows[$0.value.branch] != nil }
        var derived: [(ref: WalletAddressRef, script: [UInt8])] = []
        var passes = 1
        while !found.isEmpty {
            for (slot, ref) in found { matched[slot] = ref }
            // Each address used widens its window; the scripts added are matched against the same batch again.
            var added: [[UInt8]: WalletAddressRef] = [:]
            for ref in Set(found.values) {
                guard var wallet = wallets[ref.wallet], let window = wallet.windows[ref.branch] else { continue }
                wallet.windows[ref.branch] = WalletWindow.used(window, index: ref.index)
                wallets[ref.wallet] = wallet
            }
            for id in wallets.keys.sorted() {
                guard var wallet = wallets[id] else { continue }
                for branch in WalletBranch.allCases {
                    guard let window = wallet.windows[branch],
                        let range = WalletWindow.missing(window, gap: wallet.gap)
                    else { continue }
                    for index in range {
                        let ref = WalletAddressRef(wallet: id, branch: branch, index: index)
                        let script = try derive(ref)
                        added[script] = ref
                        derived.append((ref, script))
                    }
                    wallet.windows[branch] = WalletWindow.derived(window, upTo: range.upperBound)
                }
                wallets[id] = wallet
            }
            found = [:]
            guard !added.isEmpty else { break }
            passes += 1
            for (slot, script) in scripts.enumerated() where matched[slot] == nil {
                if let ref = added[script] { found[slot] = ref }
            }
        }
        // Per transaction, per address: outputs paying it minus inputs spending from it.
        var deltas: [Int: [WalletAddressRef: (script: [UInt8], delta: Int64)]] = [:]
        for (slot, ref) in matched {
            let (t, input, position) = slots[slot]
            let endpoint = input ? txs[t].inputs[position] : txs[t].outputs[position]
            let value = input ? -endpoint.valueSat : endpoint.valueSat
            deltas[t, default: [:]][ref, default: (scripts[slot], 0)].delta += value
        }
        var matches: [Match] = []
        for t in deltas.keys.sorted() {
            for (ref, entry) in deltas[t, default: [:]].sorted(by: { "\($0.key)" < "\($1.key)" }) {
                matches.append(Match(ref: ref, script: entry.script, txid: txs[t].txid, deltaSat: entry.delta))
            }
        }
        return Outcome(matches: matches, wallets: wallets, derived: derived, passes: passes)
    }
}
