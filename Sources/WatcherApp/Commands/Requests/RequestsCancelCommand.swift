import ArgumentParser
import Foundation
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherRequests
import WatcherRules
import WatcherStorage

/// `watcher requests cancel <id> [--note …]` and `watcher requests mark <id> settled|invalid [--note …]`: what a
/// merchant decides by hand, each with its event.
struct RequestsCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a payment request nothing was paid to (it is still followed)."
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The request id (req_…).")
    var id: String

    @Option(help: "Why, kept with the request.")
    var note: String?

    @Flag(help: "Print the request as JSON.")
    var json = false

    func run() async throws {
        try await RequestsChange.run(options: options, id: id, json: json) { chain, log in
            try await RequestDesk.cancel(id: id, chain: chain, note: note, log: log, builder: EventBuilder())
        }
    }
}

struct RequestsMarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Mark a payment request settled or invalid by hand."
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The request id (req_…).")
    var id: String

    @Argument(help: "settled or invalid.")
    var status: String

    @Option(help: "Why, kept with the request.")
    var note: String?

    @Flag(help: "Print the request as JSON.")
    var json = false

    func run() async throws {
        guard let target = PaymentRequest.Status(rawValue: status), target == .settled || target == .invalid else {
            throw CommandFailure.usage("expected settled or invalid, got \"\(status)\"")
        }
        try await RequestsChange.run(options: options, id: id, json: json) { chain, log in
            try await RequestDesk.mark(id: id, chain: chain, as: target, note: note, log: log, builder: EventBuilder())
        }
    }
}

/// Finds the request's chain, opens the store for writing, applies the change and prints the request.
enum RequestsChange {
    static func run(
        options: ConfigOptions,
        id: String,
        json: Bool,
        _ change: (String, EventLog) async throws -> PaymentRequest
    ) async throws {
        let config = try options.load(needsSinks: false)
        let (requests, _) = try RequestsSupport.read(config)
        guard let chain = requests.first(where: { $0.id == id })?.chain else {
            throw CommandFailure.runtime("no request \"\(id)\"")
        }
        let store = try StoreAccess.writer(config)
        let request: PaymentRequest
        do {
            request = try await change(chain, EventLog(store: store))
        } catch let refusal as RequestActions.Refusal {
            await store.close()
            throw CommandFailure.usage(refusal.description)
        } catch {
            await store.close()
            throw CommandFailure.runtime("\(error)")
        }
        let tip = try? store.read { try $0.tip(chain: chain)?.height }
        await store.close()
        RequestsSupport.print(request, tip: tip ?? nil, json: json)
    }
}
