import Foundation
import Synchronization
import WatcherCore
import WatcherRules
import WatcherStorage

/// Keeps the payment requests of one chain up to date: each round reads the tip, the requests and their
/// addresses' followed transactions from the store (what the address and wallet jobs committed, so requests cost
/// no provider request of their own), reduces each request (``RequestReducer``) and commits the changed ones with
/// their events in one write transaction. A round does the reading only when something it depends on moved: the
/// event log's head (a payment, a confirmation, a replacement, a new request), the tip, or the time passing the
/// next deadline (an expiry, a `settleBy`).
struct RequestJob: Sendable {
    /// How often the job looks.
    static let every: Duration = .seconds(1)

    let chain: String
    let context: EngineContext
    /// What the last full round saw: the log's head, the tip, and the next deadline then.
    let memory = Memory()

    final class Memory: Sendable {
        private let seen = Mutex<(head: UInt64, tip: Int?, deadline: Date)?>(nil)

        func isCurrent(head: UInt64, tip: Int?, now: Date) -> Bool {
            seen.withLock { seen in
                guard let seen else { return false }
                return seen.head == head && seen.tip == tip && now < seen.deadline
            }
        }

        func remember(head: UInt64, tip: Int?, deadline: Date) {
            seen.withLock { $0 = (head, tip, deadline) }
        }
    }

    /// One round.
    func round() async throws {
        let now = context.time.now()
        let chain = self.chain
        let (head, tip) = try context.store.read { txn in (try txn.lastEventSeq(), try txn.tip(chain: chain)?.height) }
        guard !memory.isCurrent(head: head, tip: tip, now: now) else { return }
        let builder = context.events
        typealias Step = (before: PaymentRequest, after: PaymentRequest, events: [NewEvent])
        let (steps, deadline) = try context.store.read { txn -> ([Step], Date) in
            var steps: [Step] = []
            var deadline = now.addingTimeInterval(60)
            for request in try txn.requests(chain: chain) where Self.isFollowed(request, tip: tip, now: now) {
                let state = try txn.addressState(chain: chain, address: request.address)
                let rate = try request.fiat.flatMap { try txn.price(currency: $0.currency)?.price }
                let facts = RequestReducer.Facts(tipHeight: tip, state: state, rateNow: rate)
                let (after, events) = RequestReducer.reduce(request, facts: facts, now: now, events: builder)
                if after != request { steps.append((request, after, events)) }
                if let next = Self.nextDeadline(after, after: now) { deadline = min(deadline, next) }
            }
            return (steps, deadline)
        }
        if !steps.isEmpty {
            try await context.commit { txn in
                var events: [NewEvent] = []
                for step in steps {
                    // A request changed meanwhile (a mark, a cancel from the CLI) is left to the next round.
                    guard try txn.request(chain: chain, id: step.before.id) == step.before else { continue }
                    try txn.putRequest(step.after)
                    events += step.events
                }
                return events
            }
            return  // The commit moved the head: the next round looks again.
        }
        memory.remember(head: head, tip: tip, deadline: deadline)
    }

    /// Whether a request is still followed: all but those long settled (every counted payment buried under
    /// `confirmations` + 6 blocks after `settleBy`) and cancelled ones past `settleBy` with nothing paid.
    static func isFollowed(_ request: PaymentRequest, tip: Int?, now: Date) -> Bool {
        guard now >= request.settleBy else { return true }
        switch request.status {
        case .settled:
            let depth = request.terms.confirmations + 6
            return request.payments.contains { $0.state == .counted && $0.confirmations(tip: tip) < depth }
        default:
            return true
        }
    }

    /// The next time the request's status may change by the clock alone.
    static func nextDeadline(_ request: PaymentRequest, after now: Date) -> Date? {
        [request.expiresAt, request.settleBy].filter { $0 > now }.min()
    }
}
