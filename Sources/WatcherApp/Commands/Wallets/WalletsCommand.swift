import ArgumentParser

/// `watcher wallets`: wallets given as an output descriptor or an extended public key. Each subcommand is a
/// file of its own in this folder.
struct WalletsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallets",
        abstract: "Wallets given as an output descriptor or an extended public key (xpub/ypub/zpub/tpub).",
        subcommands: [
            WalletsDeriveCommand.self, WalletsListCommand.self, WalletsShowCommand.self, WalletsNextCommand.self,
        ]
    )
}
