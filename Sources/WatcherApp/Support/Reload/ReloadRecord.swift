import Foundation
import Synchronization
import WatcherCore
import WatcherJSON

/// The outcome of the last reload, for `/healthz` (`"reload"`) and the log.
final class ReloadRecord: Sendable {
    /// One reload's outcome.
    struct Outcome: Sendable, Equatable {
        /// `ok` or `failed`.
        var result: String
        /// When it ended.
        var time: Date
        /// What changed (``ConfigDiff/summary``), or why nothing was applied.
        var changes: String
        /// Every problem, with its JSON path, when it failed.
        var problems: [String]
    }

    private let last = Mutex<Outcome?>(nil)

    init() {}

    /// The last reload's outcome, `nil` before the first.
    var outcome: Outcome? { last.withLock { $0 } }

    /// Records an outcome.
    func record(_ outcome: Outcome) { last.withLock { $0 = outcome } }

    /// `{"result": "ok", "time": "...", "changes": "...", "problems": []}`, or `nil` before the first reload.
    func json() -> JSONValue? {
        guard let outcome else { return nil }
        return .object([
            .init("result", .string(outcome.result)),
            .init("time", .string(outcome.time.formatted(.iso8601))),
            .init("changes", .string(outcome.changes)),
            .init("problems", .array(outcome.problems.map(JSONValue.string))),
        ])
    }
}
