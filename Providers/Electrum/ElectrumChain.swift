import WatcherBitcoin

/// The networks a config chain id names, as an Electrum server identifies its own: the genesis block hash of
/// `server.features`, and the address encoding.
enum ElectrumChain {
    /// The genesis hash `server.features` must report for `chain` (`nil`: the chain id names no Bitcoin network,
    /// and nothing is checked).
    static func genesis(_ chain: String?) -> String? {
        switch chain?.lowercased() {
        case "btc", "bitcoin", "btc-mainnet": "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f"
        case "btc-testnet", "btc-testnet3", "tbtc", "testnet":
            "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943"
        case "btc-testnet4", "testnet4": "00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043"
        case "btc-signet", "signet": "00000008819873e925422c1ff0f99f7cc9bbb232af63a077a480a3633bee1ef6"
        case "btc-regtest", "regtest": "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"
        default: nil
        }
    }

    /// The address network of `chain`, mainnet when it names none.
    static func network(_ chain: String?) -> BitcoinAddress.Network {
        chain.flatMap(BitcoinAddress.Network.init(chain:)) ?? .mainnet
    }
}
