import Foundation
import WatcherCore
import WatcherStorage

/// Where to trim the event log, decided without I/O.
///
/// Entries at or below every configured sink's cursor may go, except the newest `keep` (kept for
/// `watcher events list`). Entries appended longer than the retention ago go even if a sink has not passed them.
/// Append times come from the ``AppendMark`` index: a mark `(seq, time)` says the log had reached `seq` by
/// `time`, so an entry at or below `seq` is at least `now - time` old. Ages are never overestimated: an entry is
/// kept at most one trim interval longer than the retention, never dropped early.
public struct TrimPlan: Sendable, Equatable {
    /// Delete log entries below this position; `nil` when nothing goes.
    public var before: UInt64?
    /// Whether the retention age (not the sinks' cursors) set `before`.
    public var byAge: Bool
    /// A new append mark to record, when the log grew since the newest one.
    public var mark: AppendMark?

    /// Creates a plan.
    public init(before: UInt64?, byAge: Bool, mark: AppendMark?) {
        self.before = before
        self.byAge = byAge
        self.mark = mark
    }

    /// Plans one trim pass.
    /// - Parameters:
    ///   - first: the oldest position in the log (`nil` when empty).
    ///   - last: the highest position ever assigned.
    ///   - cursors: the cursor of every configured sink (0 for a sink that has passed nothing).
    ///   - marks: the append marks, oldest first.
    ///   - now: the current time.
    ///   - retention: `storage.eventRetention`; `nil` trims by cursors only.
    ///   - keep: entries to keep behind the slowest sink anyway.
    public static func plan(
        first: UInt64?,
        last: UInt64,
        cursors: [UInt64],
        marks: [AppendMark],
        now: Date,
        retention: Duration?,
        keep: Int
    ) -> TrimPlan {
        let mark = last > (marks.last?.seq ?? 0) ? AppendMark(seq: last, time: now) : nil
        guard let first else { return TrimPlan(before: nil, byAge: false, mark: mark) }
        var floorCut: UInt64 = 0
        if let slowest = cursors.min() {
            let keepCut = last + 1 > UInt64(max(keep, 0)) ? last + 1 - UInt64(max(keep, 0)) : 0
            floorCut = min(slowest + 1, keepCut)
        }
        var ageCut: UInt64 = 0
        if let retention {
            let limit = now.addingTimeInterval(-retention.timeInterval)
            if let old = marks.last(where: { $0.time <= limit }) { ageCut = old.seq + 1 }
        }
        let cut = min(max(floorCut, ageCut), last + 1)
        guard cut > first else { return TrimPlan(before: nil, byAge: false, mark: mark) }
        return TrimPlan(before: cut, byAge: ageCut > floorCut, mark: mark)
    }
}
