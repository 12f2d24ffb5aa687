extension BitcoinAddress {
    /// The network an address belongs to, as far as its encoding tells.
    ///
    /// Base58 addresses with the test version bytes (0x6f, 0xc4) are used alike by testnet3, testnet4,
    /// signet and regtest, so they are always reported as ``testnet``; ``BitcoinAddress/isValid(on:)``
    /// accepts them on ``regtest`` too.
    public enum Network: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// Mainnet: Base58 versions 0x00 / 0x05, Bech32 prefix `bc`.
        case mainnet
        /// Testnet3, testnet4 and signet: Base58 versions 0x6f / 0xc4, Bech32 prefix `tb`.
        case testnet
        /// Regtest: Bech32 prefix `bcrt`; its Base58 addresses look like ``testnet`` ones.
        case regtest

        /// The segwit human-readable part: `bc`, `tb` or `bcrt`.
        public var hrp: String {
            switch self {
            case .mainnet: "bc"
            case .testnet: "tb"
            case .regtest: "bcrt"
            }
        }

        /// The network of a config chain id: `btc` is mainnet; `btc-testnet`, `btc-testnet4`, `btc-signet` and
        /// `tbtc` are testnet; `btc-regtest` is regtest. Other chain ids name no network, and their addresses are
        /// not checked against one.
        public init?(chain: String) {
            switch chain.lowercased() {
            case "btc", "bitcoin", "btc-mainnet": self = .mainnet
            case "btc-testnet", "btc-testnet3", "btc-testnet4", "btc-signet", "tbtc", "testnet", "signet":
                self = .testnet
            case "btc-regtest", "regtest": self = .regtest
            default: return nil
            }
        }

        /// The network whose segwit human-readable part is `hrp` (lower case), if any.
        public init?(hrp: String) {
            switch hrp {
            case "bc": self = .mainnet
            case "tb": self = .testnet
            case "bcrt": self = .regtest
            default: return nil
            }
        }

        /// The raw value: `mainnet`, `testnet` or `regtest`.
        public var description: String { rawValue }
    }
}
