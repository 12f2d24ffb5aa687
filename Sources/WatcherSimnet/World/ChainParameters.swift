/// The knobs of the simulated chain. Equal parameters give an equal chain.
public struct ChainParameters: Sendable, Hashable {
    /// The seed of every random choice the chain makes.
    public var seed: UInt64
    /// The network played. On ``SimnetNetwork/regtest`` the chain starts at regtest's genesis block (height 0,
    /// ``startHeight`` is ignored), the funding block is height 1 and 100 blocks mature its coinbase before the
    /// ``initialBlocks`` of traffic.
    public var network: SimnetNetwork
    /// The height of the first block (mainnet only).
    public var startHeight: Int
    /// How many blocks exist at start (at least 1): the first funds the wallet addresses.
    public var initialBlocks: Int
    /// Transactions per mined block, coinbase included (at least 1). Above 1000 exercises paging.
    public var txsPerBlock: Int
    /// Random transactions left unconfirmed in the mempool after each block.
    public var mempoolTxsPerBlock: Int
    /// How many funded wallet addresses to create (at least 1); kinds cycle P2WPKH, P2TR, P2PKH, P2SH.
    public var fundedAddressCount: Int
    /// Unix time of the first block; later blocks follow at 5 to 15 minute spacing.
    public var startTime: Int64

    /// Creates chain parameters.
    public init(
        seed: UInt64 = 42,
        startHeight: Int = 800_000,
        initialBlocks: Int = 6,
        txsPerBlock: Int = 50,
        mempoolTxsPerBlock: Int = 3,
        fundedAddressCount: Int = 24,
        startTime: Int64 = 1_700_000_000,
        network: SimnetNetwork = .mainnet
    ) {
        self.seed = seed
        self.network = network
        self.startHeight = network == .regtest ? 0 : max(0, startHeight)
        self.initialBlocks = max(1, initialBlocks)
        self.txsPerBlock = max(1, txsPerBlock)
        self.mempoolTxsPerBlock = max(0, mempoolTxsPerBlock)
        self.fundedAddressCount = max(1, fundedAddressCount)
        self.startTime = startTime
    }
}
