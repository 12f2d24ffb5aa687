import WatcherBitcoin
import WatcherCore

/// One followed wallet (a `wallet` watch), with what deriving and announcing its addresses needs.
public struct FollowedWallet: Sendable {
    /// The watch id, which is the wallet's id.
    public var id: String
    /// The wallet.
    public var descriptor: WalletDescriptor
    /// The gap.
    public var gap: Int
    /// Confirmation counts to announce.
    public var thresholds: [Int]
    /// Blocks a transaction is followed past its highest threshold.
    public var reorgSafety: Int
    /// The watch's `from`.
    public var from: Int?
    /// Its label.
    public var label: String?
    /// How it is followed.
    public var strategy: AddressStrategy

    /// The wallet a stored state was derived from (to remove its scripts), when its descriptor still parses.
    package init?(stored state: WalletState) {
        guard let network = BitcoinAddress.Network(chain: state.chain),
            let descriptor = try? WalletDescriptor(parsing: state.descriptor, network: network)
        else { return nil }
        self.init(
            id: state.wallet,
            descriptor: descriptor,
            gap: 1,
            thresholds: [],
            reorgSafety: 0,
            from: nil,
            label: nil,
            strategy: .auto
        )
    }

    /// Creates a wallet.
    public init(
        id: String,
        descriptor: WalletDescriptor,
        gap: Int,
        thresholds: [Int],
        reorgSafety: Int,
        from: Int?,
        label: String?,
        strategy: AddressStrategy
    ) {
        self.id = id
        self.descriptor = descriptor
        self.gap = gap
        self.thresholds = thresholds
        self.reorgSafety = reorgSafety
        self.from = from
        self.label = label
        self.strategy = strategy
    }

    /// The branches it has: receive, and change unless the descriptor has none.
    public var branches: [WalletBranch] { descriptor.change == nil ? [.receive] : [.receive, .change] }

    /// The normalised descriptor, as stored with its state.
    public var normalized: String { descriptor.description }

    /// The scriptPubKey at `index` of `branch`.
    public func script(_ branch: WalletBranch, _ index: Int) throws -> [UInt8] {
        try descriptor.scriptPubKey(branch.descriptorBranch, index: UInt32(index))
    }

    /// The address at `index` of `branch`.
    public func address(_ branch: WalletBranch, _ index: Int) throws -> String {
        try descriptor.address(branch.descriptorBranch, index: UInt32(index)).address.string
    }

    /// The address of a script of this wallet.
    public func address(script: [UInt8]) -> String? {
        BitcoinAddress(scriptPubKey: script, network: descriptor.network)?.string
    }

    /// A state with nothing derived yet.
    package func emptyState(chain: String) -> WalletState {
        WalletState(chain: chain, wallet: id, descriptor: normalized)
    }

    /// The windows as matching takes them.
    package func matching(_ state: WalletState) -> WalletMatcher.Wallet {
        WalletMatcher.Wallet(
            windows: Dictionary(uniqueKeysWithValues: branches.map { ($0, state[$0]) }),
            gap: gap
        )
    }

    /// The address book entry of one of its addresses (`issuedLabel`: the label `wallets next` gave it).
    public func entry(address: String, ref: WalletAddressRef, since: Int?, issuedLabel: String?)
        -> FollowedAddress
    {
        var entry = FollowedAddress(
            address: address,
            label: label,
            thresholds: thresholds,
            watch: id,
            reorgSafety: reorgSafety,
            from: from ?? since
        )
        entry.wallet = ref
        entry.issuedLabel = issuedLabel
        return entry
    }
}

extension WalletBranch {
    /// The same branch as ``WalletDescriptor/Branch``.
    package var descriptorBranch: WalletDescriptor.Branch { self == .receive ? .receive : .change }
}
