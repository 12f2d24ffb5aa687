import WatcherBitcoin

/// Bitcoin Core's regtest genesis block, byte for byte: `CreateGenesisBlock(1296688602, 2, 0x207fffff, 1, 50 * COIN)`
/// of `CRegTestParams`, whose coinbase is mainnet genesis's ("The Times 03/Jan/2009 …", 50 BTC to a P2PK key).
enum RegtestGenesis {
    /// Its hash, as Core prints it.
    static let hash = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"

    /// The serialized block (285 bytes), as `getblock <hash> 0` returns it on a regtest node.
    static let hex =
        "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81b"
        + "c3888a51323a9fb8aa4b1e5e4adae5494dffff7f20020000000101000000010000000000000000000000000000000000000000000000"
        + "000000000000000000ffffffff4d04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72"
        + "206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73ffffffff0100f2052a01000000434104678a"
        + "fdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d57"
        + "8a4c702b6bf11d5fac00000000"

    /// The parsed block. The bytes are a constant checked by the tests, so parsing cannot fail.
    static let block: RawBlock = {
        guard let block = try? RawBlock(hex: hex) else { preconditionFailure("the regtest genesis bytes do not parse") }
        return block
    }()
}
