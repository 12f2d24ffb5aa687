import Foundation
import WatcherCore
import WatcherJSON

/// What a merchant does to a request by hand: cancel it (before anything was paid), or mark it settled or
/// invalid (from any status, flagged `marked`). Refusals say why.
public enum RequestActions {
    /// A refused action.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// A request that is not there.
    public struct NotFound: Error, Sendable, Hashable, CustomStringConvertible {
        /// The id asked for.
        public var id: String

        /// Creates the error.
        public init(id: String) { self.id = id }

        public var description: String { "no request \"\(id)\"" }
    }

    /// Cancels `request`: only while nothing counts towards it. It is still followed, and a payment to it is
    /// still announced (`request.payment.seen`).
    public static func cancel(_ request: PaymentRequest, note: String?, builder: EventBuilder) throws(Refusal)
        -> (PaymentRequest, [NewEvent])
    {
        guard request.status != .cancelled else { return (request, []) }
        guard request.paidSat == 0, !request.marked, [.open, .expired].contains(request.status) else {
            throw Refusal(
                description: "request \(request.id) is \(request.status.rawValue) with \(request.paidSat) sat paid; "
                    + "only a request with nothing paid can be cancelled (mark it instead)"
            )
        }
        var request = request
        request.status = .cancelled
        request.note = note
        request.revision += 1
        let event = RequestEvents.make(
            .init(kind: .cancelled, fact: ["cancelled", "\(request.revision)"]),
            request,
            tipHeight: nil,
            builder: builder
        )
        return (request, [event])
    }

    /// Marks `request` settled or invalid by hand.
    public static func mark(
        _ request: PaymentRequest,
        as status: PaymentRequest.Status,
        note: String?,
        tipHeight: Int?,
        builder: EventBuilder
    ) throws(Refusal) -> (PaymentRequest, [NewEvent]) {
        guard status == .settled || status == .invalid else {
            throw Refusal(description: "a request can be marked settled or invalid, not \(status.rawValue)")
        }
        var request = request
        request.status = status
        request.marked = true
        request.note = note
        request.policy = status == .settled ? "marked" : nil
        request.revision += 1
        let event = RequestEvents.make(
            .init(kind: .marked, fact: [status.rawValue, "\(request.revision)"]),
            request,
            tipHeight: tipHeight,
            builder: builder
        )
        return (request, [event])
    }
}
