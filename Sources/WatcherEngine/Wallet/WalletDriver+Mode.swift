extension WalletDriver {
    /// What a wallet job's round does.
    enum Mode: Sendable {
        /// The whole window each round (a polled wallet).
        case poll
        /// Only addresses whose history was never checked or whose balance is unknown (a scanned wallet, whose
        /// payments come with the blocks).
        case checkHistory
        /// The window prepared and the starting balances read from the node's UTXO set (a scanned wallet on
        /// providers without an address index, whose window the scanned blocks grow).
        case prepareWindow
        /// The provider's wallet summary, one request per round (``xpubRound()``).
        case xpub
    }
}
