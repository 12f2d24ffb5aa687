import Foundation
import WatcherBitcoin
import WatcherCore

/// One entry of `watches`: what to follow, through which providers, how often.
public struct WatchConfig: Sendable {
    /// The watch types.
    public enum Kind: String, Sendable, CaseIterable {
        case blocks
        case address
        case wallet
        case tx
        case price
    }

    /// An address to follow, with an optional label (from a `bitcoin:` URI or the `labels` map).
    public struct WatchedAddress: Sendable, Hashable {
        /// The address.
        public var address: String
        /// Its label.
        public var label: String?

        /// Creates an entry.
        public init(address: String, label: String?) {
            self.address = address
            self.label = label
        }
    }

    /// The id, used in event sources (`watcher/<id>`).
    public var id: String
    /// The type.
    public var kind: Kind
    /// The chain (`btc`); empty for price watches.
    public var chain: String
    /// Provider ids in failover order.
    public var providers: [String]
    /// The refresh interval asked for.
    public var every: Duration
    /// `blocks`: the most missed blocks announced after downtime.
    public var maxBackfill: Int = 100
    /// `address`: the addresses.
    public var addresses: [WatchedAddress] = []
    /// `address` and `tx`: confirmation thresholds to announce.
    public var confirmations: [Int] = []
    /// `address` and `tx`: blocks a transaction is still followed past its highest threshold, so a reorg that
    /// removes its block afterwards is reported.
    public var reorgSafety: Int = 6
    /// `address`: the first block height whose payments are announced at the first poll (default: the block after
    /// the tip at the first poll).
    public var from: Int?
    /// `address`: how the addresses are followed.
    public var strategy: AddressStrategy = .auto
    /// `tx`: the txid.
    public var txid: String?
    /// `price`: currencies.
    public var currencies: [String] = []
    /// `price`: levels whose upward crossing is announced.
    public var above: [Decimal] = []
    /// `price`: levels whose downward crossing is announced.
    public var below: [Decimal] = []
    /// `price`: a move of at least this many percent within `window` is announced.
    public var changePercent: Decimal?
    /// `price`: the window for `changePercent`.
    public var window: Duration?
    /// `price`: emit `price.updated` on every fetch.
    public var emitUpdates: Bool = false
    /// `price`: ask every provider each round (not the first that answers), keep each one's quote, and judge the
    /// levels and changes on their median.
    public var median: Bool = false
    /// `wallet`: the wallet (from `descriptor` or `xpub`), normalised.
    public var wallet: WalletDescriptor?
    /// `wallet`: consecutive unused addresses watched past the last used (or issued) one, per branch.
    public var gap: Int = 20
    /// `wallet`: a label for its events and listings.
    public var label: String?
    /// `address`, `wallet` and `tx`: how many of the watch's providers must report a transaction in the same
    /// block before its confirmation is announced (1: the provider in charge alone, as before).
    public var agree: Int = 1
    /// `wallet`: the terms of its payment requests, when it takes them (a `requests` block).
    public var requests: RequestTerms?
    /// `address`, `wallet` and `tx` with `agree` above 1: blocks a provider may be behind the agreed tip before it
    /// is set aside as lagging.
    public var maxLag: Int = 2

    /// Whether the watch follows addresses (an `address` watch, or a `wallet` watch's derived ones).
    public var followsAddresses: Bool { kind == .address || kind == .wallet }

    /// Creates a watch.
    public init(id: String, kind: Kind, chain: String, providers: [String], every: Duration) {
        self.id = id
        self.kind = kind
        self.chain = chain
        self.providers = providers
        self.every = every
    }

    /// How an `address` or `wallet` watch follows its addresses (the rules read it too, so it lives in WatcherCore).
    public typealias AddressStrategy = WatcherCore.AddressStrategy

    /// The default refresh interval per type.
    public static func defaultInterval(_ kind: Kind) -> Duration {
        switch kind {
        case .blocks: .seconds(30)
        case .address: .seconds(120)
        case .tx: .seconds(60)
        case .price: .seconds(60)
        case .wallet: .seconds(120)
        }
    }
}
