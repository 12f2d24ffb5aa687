import Crypto
import Foundation
import Logging
import WatcherCore

/// POSTs each event to one endpoint, signed per Standard Webhooks v1.
///
/// One attempt per event, in order, stopping at the first failure; retries, backoff, dead letters and ordering
/// are the ``DeliveryWorker``'s, with the policy from the options (``deliveryPolicy``). It classifies answers:
/// 2xx delivered; 410 Gone disables the endpoint; anything else (and transport errors or the timeout) is retried,
/// after the `Retry-After` the answer carries, if any.
public struct WebhookSink: ManagedSink {
    public let id: String
    let options: WebhookSinkPlugin.Options
    let key: [UInt8]?
    let http: any HTTPFetching
    let logger: Logger
    let now: @Sendable () -> Date

    /// Creates the sink.
    /// - Parameters:
    ///   - id: the config id.
    ///   - options: endpoint, secret, headers, timeout and retry policy.
    ///   - http: the shared transport.
    ///   - logger: for per-attempt debug lines.
    ///   - now: the time stamped into `webhook-timestamp`.
    public init(
        id: String,
        options: WebhookSinkPlugin.Options,
        http: any HTTPFetching,
        logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.id = id
        self.options = options
        self.key = options.secret.flatMap(WebhookSignature.key(from:)).map { $0.withUnsafeBytes { Array($0) } }
        self.http = http
        self.logger = logger
        self.now = now
    }

    /// From the options: `maxAttempts`, `maxAge`, `initialBackoff`…`maxBackoff`; 64 events per batch.
    public var deliveryPolicy: DeliveryPolicy {
        DeliveryPolicy(
            maxAttempts: options.maxAttempts,
            maxAge: options.maxAge,
            backoff: Backoff(base: options.initialBackoff, cap: options.maxBackoff),
            batchSize: 64
        )
    }

    /// The endpoint URL: a persisted disable is dropped when it changes.
    public var destination: String { options.url }

    public func deliver(_ events: [SinkEvent]) async -> [DeliveryOutcome] {
        await deliverReporting(events).outcomes
    }

    public func deliverReporting(_ events: [SinkEvent]) async -> DeliveryReport {
        var outcomes: [DeliveryOutcome] = []
        for event in events {
            let (outcome, gone) = await attempt(event)
            outcomes.append(outcome)
            if outcome != .delivered {
                let skipped = events.count - outcomes.count
                outcomes += Array(repeating: .retry(after: nil, reason: "an earlier event is pending"), count: skipped)
                return DeliveryReport(outcomes: outcomes, disable: gone)
            }
        }
        return DeliveryReport(outcomes: outcomes)
    }

    /// The request for one attempt at `timestamp`.
    func request(_ event: SinkEvent, timestamp: Int) -> HTTPRequestSpec {
        var headers = options.headers
        headers.append(("Content-Type", "application/json"))
        headers.append(("webhook-id", event.id))
        headers.append(("webhook-timestamp", "\(timestamp)"))
        if let key {
            let signature = WebhookSignature.sign(
                key: SymmetricKey(data: key),
                id: event.id,
                timestamp: timestamp,
                body: event.body
            )
            headers.append(("webhook-signature", signature))
        }
        return HTTPRequestSpec(
            method: "POST",
            url: options.url,
            headers: headers,
            body: event.body,
            budget: options.timeout,
            maxBodyBytes: 1 << 20
        )
    }

    /// One attempt; the second value is set when the endpoint is gone for good.
    func attempt(_ event: SinkEvent) async -> (DeliveryOutcome, String?) {
        let date = now()
        do {
            let response = try await http.fetch(request(event, timestamp: Int(date.timeIntervalSince1970)))
            logger.trace("webhook answered", metadata: ["sink": "\(id)", "status": "\(response.status)"])
            switch response.status {
            case 200..<300:
                return (.delivered, nil)
            case 410:
                let reason = "HTTP 410 Gone from \(options.url): the endpoint asked not to be called again"
                return (.reject(reason: reason), reason)
            default:
                let after = response.header("Retry-After").flatMap { RetryAfter.parse($0, now: date) }
                return (.retry(after: after, reason: "HTTP \(response.status)"), nil)
            }
        } catch HTTPFetchError.timeout(let budget) {
            return (.retry(after: nil, reason: "no answer within \(budget)"), nil)
        } catch HTTPFetchError.transport(let message) {
            return (.retry(after: nil, reason: message), nil)
        } catch {
            return (.retry(after: nil, reason: "\(error)"), nil)
        }
    }
}
