import ArgumentParser

/// `watcher requests`: payment requests on a wallet ("is order 1042 paid?", `docs/requests.md`). Each
/// subcommand is a file of its own in this folder.
struct RequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests",
        abstract: "Payment requests: an amount due on a fresh wallet address, followed to settled.",
        subcommands: [
            RequestsCreateCommand.self, RequestsListCommand.self, RequestsShowCommand.self,
            RequestsCancelCommand.self, RequestsMarkCommand.self,
        ]
    )
}
