import Foundation
import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherJSON
import WatcherObservability
import WatcherRules
import WatcherStorage

/// Keeps the payment requests of one chain up to date from what the address and wallet jobs committed (requests
/// cost no provider request of their own): it reduces a request (``RequestReducer``) and commits it with its
/// events in one write transaction when something it depends on moved:
/// - an `address.*` event about its address, or its `request.created`, in the event log since the last round;
/// - a new tip, for the requests waiting on confirmations (`paid`, `late`, `reverted`);
/// - the clock passing its next deadline (an expiry, a `settleBy`).
///
/// The first round (and a round that finds the log trimmed past what it read) reads every request once; later
/// rounds read only the affected ones, so 10,000 open requests cost a round only what changed
/// (`docs/benchmarks.md`, "Payment requests").
package struct RequestJob: LocalJob {
    /// How often the job looks.
    package static let every: Duration = .seconds(1)

    let chain: String
    let log: EventLog
    let builder: EventBuilder
    let now: @Sendable () -> Date
    /// Called with the events each commit appended (the engine counts them).
    let appended: @Sendable ([NewEvent]) -> Void
    let memory = Memory()

    /// Creates the job of `chain`.
    package init(
        chain: String,
        log: EventLog,
        builder: EventBuilder,
        now: @escaping @Sendable () -> Date,
        appended: @escaping @Sendable ([NewEvent]) -> Void = { _ in }
    ) {
        self.chain = chain
        self.log = log
        self.builder = builder
        self.now = now
        self.appended = appended
    }

    /// The jobs of `config`: one per chain with a wallet that takes payment requests (a `requests` block), over the
    /// engine's store, clock and metrics.
    package static func jobs(_ config: WatcherConfig, context: EngineContext) -> [RequestJob] {
        let chains = Set(config.watches.filter { $0.kind == .wallet && $0.requests != nil }.map(\.chain))
        let metrics = context.metrics
        return chains.sorted().map { chain in
            RequestJob(
                chain: chain,
                log: context.log,
                builder: context.events,
                now: { [time = context.time] in time.now() },
                appended: { $0.forEach { metrics.eventEmitted($0.type) } }
            )
        }
    }

    /// The name its rounds are logged under.
    package var name: String { "requests \(chain)" }
    /// How often the job looks.
    package var every: Duration { Self.every }

    /// What the job knows between rounds: where it read the log to, the tip, each request's address, which
    /// requests wait on the tip, and their deadlines.
    struct Index: Sendable {
        var readTo: UInt64 = 0
        var tip: Int?
        var byAddress: [String: [String]] = [:]
        var waitingOnTip: Set<String> = []
        var deadlines: [String: Date] = [:]

        mutating func note(_ request: PaymentRequest, now: Date) {
            if byAddress[request.address]?.contains(request.id) != true {
                byAddress[request.address, default: []].append(request.id)
            }
            if [.paid, .late, .reverted].contains(request.status) {
                waitingOnTip.insert(request.id)
            } else {
                waitingOnTip.remove(request.id)
            }
            deadlines[request.id] = RequestJob.nextDeadline(request, after: now)
        }
    }

    final class Memory: Sendable {
        let index = Mutex<Index?>(nil)
    }

    /// One round.
    package func round() async throws {
        let now = self.now()
        let chain = self.chain
        let (head, first, tip) = try log.store.read { txn in
            (try txn.lastEventSeq(), try txn.firstEventSeq(), try txn.tip(chain: chain)?.height)
        }
        let known = memory.index.withLock { $0 }
        var index = known ?? Index()
        var candidates: Set<String>
        if let known, first.map({ $0 <= known.readTo + 1 }) ?? true {
            (candidates, index.readTo) = try changed(since: known.readTo, to: head, index: index)
            if tip != known.tip { candidates.formUnion(known.waitingOnTip) }
            candidates.formUnion(known.deadlines.filter { $0.value <= now }.keys)
        } else {
            index = Index()
            index.readTo = head
            candidates = Set(try log.store.read { try $0.requests(chain: chain) }.map(\.id))
        }
        index.tip = tip
        let steps = try reduce(candidates, tip: tip, now: now, index: &index)
        if !steps.isEmpty { try await commit(steps) }
        let settled = index
        memory.index.withLock { $0 = settled }
    }

    /// Most log entries read in one round; a longer backlog is read over the next rounds.
    static let entriesPerRound = 5_000

    /// The requests the log names after `seq` (up to `head`, at most ``entriesPerRound``): their own `request.*`
    /// events, and the `address.*` events of their addresses; and the last sequence number read.
    func changed(since seq: UInt64, to head: UInt64, index: Index) throws -> (Set<String>, UInt64) {
        guard head > seq else { return ([], seq) }
        let entries = try log.entries(from: seq + 1, limit: Int(min(head - seq, UInt64(Self.entriesPerRound))))
        var ids: Set<String> = []
        for entry in entries {
            if entry.type.hasPrefix("request.") {
                if let subject = try? JSONValue.parse(entry.body)["subject"]?.stringValue { ids.insert(subject) }
            } else if entry.type.hasPrefix("address.") {
                guard let address = try? JSONValue.parse(entry.body)["data"]?["address"]?.stringValue else { continue }
                ids.formUnion(index.byAddress[address] ?? [])
            }
        }
        return (ids, entries.last?.seq ?? head)
    }

    typealias Step = (before: PaymentRequest, after: PaymentRequest, events: [NewEvent])

    /// Reduces each of `ids` on the stored facts; the steps that change a request.
    func reduce(_ ids: Set<String>, tip: Int?, now: Date, index: inout Index) throws -> [Step] {
        let chain = self.chain
        let builder = self.builder
        let (steps, seen) = try log.store.read { txn -> ([Step], [PaymentRequest]) in
            var steps: [Step] = []
            var seen: [PaymentRequest] = []
            let fee = try txn.feeEstimate(chain: chain).flatMap { fee in
                now.timeIntervalSince(fee.time) <= TimeInterval(FeeEstimate.maxAgeSeconds) ? fee : nil
            }
            for id in ids.sorted() {
                guard let request = try txn.request(chain: chain, id: id) else { continue }
                let state = try txn.addressState(chain: chain, address: request.address)
                let rate = try request.fiat.flatMap { fiat in
                    RequestQuote.rateNow(
                        terms: request.terms,
                        latest: try txn.price(currency: fiat.currency),
                        stored: try txn.sourcePrices(
                            currency: fiat.currency,
                            providers: request.terms.rateSources ?? []
                        )
                    )
                }
                var facts = RequestReducer.Facts(tipHeight: tip, state: state, rateNow: rate)
                facts.nextBlockFee = fee
                for height in Set(state.map { $0.txs.values.compactMap(\.blockHeight) } ?? []) {
                    facts.blockTimes[height] = try txn.header(chain: chain, height: height)?.time
                }
                let (after, events) = RequestReducer.reduce(request, facts: facts, now: now, events: builder)
                if after != request { steps.append((request, after, events)) }
                seen.append(after)
            }
            return (steps, seen)
        }
        for request in seen { index.note(request, now: now) }
        return steps
    }

    /// Commits the steps whose request is still as read (one changed meanwhile, by a mark or a cancel from the
    /// CLI, is left to the next round, which its own event brings).
    func commit(_ steps: [Step]) async throws {
        let chain = self.chain
        let events = try await log.commit { txn in
            var events: [NewEvent] = []
            for step in steps {
                guard try txn.request(chain: chain, id: step.before.id) == step.before else { continue }
                try txn.putRequest(step.after)
                events += step.events
            }
            return events
        }
        appended(events)
    }

    /// The next time the request's status may change by the clock alone: its expiry while nothing settles it, its
    /// `settleBy` while paid; `nil` when the clock can no longer change it.
    static func nextDeadline(_ request: PaymentRequest, after now: Date) -> Date? {
        switch request.status {
        case .open, .partial: return [request.expiresAt, request.settleBy].filter { $0 > now }.min()
        // Waiting for another provider to report a payment (`minSeenBy`) or for a fee estimate (`nextBlock`): look
        // again each round.
        case .paid where RequestStatusRule.waitsOnProviders(request): return now
        case .paid: return request.settleBy > now ? request.settleBy : nil
        case .late: return now.addingTimeInterval(60)  // the late rule reads the price: look again each minute
        default: return nil
        }
    }
}
