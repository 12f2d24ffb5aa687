import WatcherBitcoin

/// The network a simnet plays: mainnet (the default, a chain starting at any height) or regtest (a chain from the
/// real regtest genesis block, with regtest's addresses, subsidy schedule and coinbase maturity).
public enum SimnetNetwork: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Mainnet addresses (`bc1`, `1`, `3`), a chain starting at ``ChainParameters/startHeight`` with no history below.
    case mainnet
    /// Regtest addresses (`bcrt1`, `m`/`n`, `2`), a chain from regtest's genesis block at height 0.
    case regtest

    /// The address network of WatcherBitcoin.
    public var addressNetwork: BitcoinAddress.Network {
        switch self {
        case .mainnet: .mainnet
        case .regtest: .regtest
        }
    }

    /// The chain name Bitcoin Core reports in `getblockchaininfo`: `main` or `regtest`.
    public var coreChainName: String {
        switch self {
        case .mainnet: "main"
        case .regtest: "regtest"
        }
    }

    /// The Base58 version byte of P2PKH addresses: 0x00 on mainnet, 0x6f on the test networks.
    var p2pkhVersion: UInt8 { self == .mainnet ? 0x00 : 0x6f }

    /// The Base58 version byte of P2SH addresses: 0x05 on mainnet, 0xc4 on the test networks.
    var p2shVersion: UInt8 { self == .mainnet ? 0x05 : 0xc4 }

    /// Blocks between subsidy halvings: 210,000 on mainnet, 150 on regtest (Core's `nSubsidyHalvingInterval`).
    public var halvingInterval: Int { self == .mainnet ? 210_000 : 150 }

    /// Confirmations a coinbase output needs before it may be spent (Core's `COINBASE_MATURITY`, 100). The mainnet
    /// simnet, which starts at a height with no history below, lets its coinbases be spent at once (0).
    public var coinbaseMaturity: Int { self == .mainnet ? 0 : 100 }

    /// The block subsidy at `height`: 50 BTC halving every ``halvingInterval`` blocks.
    public func subsidy(at height: Int) -> Int64 {
        let halvings = height / halvingInterval
        return halvings >= 64 ? 0 : 5_000_000_000 >> Int64(halvings)
    }

    /// The network named `text` (`mainnet`, `main`, `regtest`), `nil` for any other.
    public init?(name text: String) {
        switch text.lowercased() {
        case "mainnet", "main": self = .mainnet
        case "regtest": self = .regtest
        default: return nil
        }
    }

    public var description: String { rawValue }
}
