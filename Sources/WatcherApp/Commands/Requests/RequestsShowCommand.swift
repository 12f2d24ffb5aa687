import ArgumentParser
import WatcherCore

/// `watcher requests show <id> [--json]`.
struct RequestsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one payment request.")

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The request id (req_…) or the order id.")
    var id: String

    @Flag(help: "Print the request as JSON.")
    var json = false

    func run() async throws {
        let config = try options.load(needsSinks: false)
        let (requests, tips) = try RequestsSupport.read(config)
        guard let request = requests.first(where: { $0.id == id }) ?? requests.first(where: { $0.orderId == id })
        else { throw CommandFailure.runtime("no request \"\(id)\"") }
        RequestsSupport.print(request, tip: tips[request.chain], json: json)
    }
}
