import Foundation

/// A branch of a followed wallet: addresses handed out to payers, or change.
public enum WalletBranch: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Receive addresses (`…/0/*`).
    case receive
    /// Change addresses (`…/1/*`).
    case change

    /// The branch's number in a `<0;1>` tuple (0 receive, 1 change); also its byte in the script index.
    public var number: UInt8 { self == .receive ? 0 : 1 }

    /// The branch numbered `number` (0 receive, 1 change).
    public init?(number: UInt8) {
        switch number {
        case 0: self = .receive
        case 1: self = .change
        default: return nil
        }
    }

    public var description: String { rawValue }
}

/// Where one address sits in a followed wallet: the wallet's id, the branch and the index.
public struct WalletAddressRef: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The wallet (its watch id).
    public var wallet: String
    /// The branch.
    public var branch: WalletBranch
    /// The index within the branch.
    public var index: Int

    /// Creates a reference.
    public init(wallet: String, branch: WalletBranch, index: Int) {
        self.wallet = wallet
        self.branch = branch
        self.index = index
    }

    public var description: String { "\(wallet)/\(branch)/\(index)" }
}

/// The engine's memory of one followed wallet: its gap window per branch, how far its history was checked, where
/// announcements start, and its balance (the sum of its addresses' known balances).
public struct WalletState: Sendable, Hashable, Codable {
    /// The gap window of one branch. Indices count from 0; `nil` means none yet.
    public struct Window: Sendable, Hashable, Codable {
        /// The highest index seen in any transaction (mempool or confirmed), paying to or spending from it.
        public var lastUsed: Int?
        /// The highest index handed out by `watcher wallets next`.
        public var lastIssued: Int?
        /// The highest index whose script is in the script index. Never shrinks.
        public var derivedUpTo: Int?
        /// The highest index such that every index from 0 up to it had its history checked through a provider.
        public var checkedUpTo: Int?

        /// Creates a window.
        public init(lastUsed: Int? = nil, lastIssued: Int? = nil, derivedUpTo: Int? = nil, checkedUpTo: Int? = nil) {
            self.lastUsed = lastUsed
            self.lastIssued = lastIssued
            self.derivedUpTo = derivedUpTo
            self.checkedUpTo = checkedUpTo
        }

        /// How far the history check went, in words: "not scanned yet", "scanned 0…19: no payments", or
        /// "scanned 0…59: last used 39".
        public var progress: String {
            guard let checkedUpTo else { return "not scanned yet" }
            let range = "scanned 0…\(checkedUpTo)"
            guard let lastUsed else { return range + ": no payments" }
            return range + ": last used \(lastUsed)"
        }
    }

    /// The chain.
    public var chain: String
    /// The wallet's id (its watch id).
    public var wallet: String
    /// The normalised descriptor the window was derived from: a config that changes it starts the wallet afresh.
    public var descriptor: String
    /// The receive branch.
    public var receive = Window()
    /// The change branch.
    public var change = Window()
    /// The first block height whose payments are announced: the watch's `from`, else the tip at the first round + 1.
    public var since: Int?
    /// The confirmed balance: the sum of its used addresses' known confirmed balances.
    public var balanceSat: Int64 = 0
    /// The unconfirmed balance: the sum of its used addresses' known unconfirmed balances.
    public var unconfirmedSat: Int64 = 0
    /// When it last changed.
    public var updatedAt: Date?

    /// Creates a state with empty windows.
    public init(chain: String, wallet: String, descriptor: String) {
        self.chain = chain
        self.wallet = wallet
        self.descriptor = descriptor
    }

    /// The window of `branch`.
    public subscript(branch: WalletBranch) -> Window {
        get { branch == .receive ? receive : change }
        set {
            if branch == .receive { receive = newValue } else { change = newValue }
        }
    }
}

/// An address handed out by `watcher wallets next`, with the label given.
public struct IssuedAddress: Sendable, Hashable, Codable {
    /// The wallet.
    public var wallet: String
    /// The receive index.
    public var index: Int
    /// The address.
    public var address: String
    /// The label given, if any.
    public var label: String?
    /// When it was handed out.
    public var issuedAt: Date

    /// Creates a record.
    public init(wallet: String, index: Int, address: String, label: String?, issuedAt: Date) {
        self.wallet = wallet
        self.index = index
        self.address = address
        self.label = label
        self.issuedAt = issuedAt
    }
}
