import AsyncHTTPClient
import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// What the wallet suites share: the test wallet, its gap, and its stored state.
enum WalletHarness {
    static func address(_ branch: WalletDescriptor.Branch, _ index: UInt32) throws -> String {
        try wallet.address(branch, index: index).address.string
    }

    /// BIP84's account (computed merchant descriptor of shared/fixtures/wallets/merchant_descriptors_computed.json).
    static let descriptor =
        "wpkh([73c5da0a/84h/0h/0h]xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)#qf45pmyh"

    static let gap = 3

    static func state(_ store: Store) throws -> WalletState? {
        try store.read { try $0.walletState(chain: "btc", wallet: "shop") }
    }

    static let wallet: WalletDescriptor = {
        do { return try WalletDescriptor(parsing: descriptor, network: .mainnet) } catch { fatalError("\(error)") }
    }()
}
