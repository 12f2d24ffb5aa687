import Crypto
import Foundation
import HTTPTypes
import Logging
import WatcherCore
import WatcherJSON

/// POSTs each event to one endpoint, signed per Standard Webhooks v1.
///
/// One attempt per event, in order, stopping at the first failure; retries, backoff, dead letters and ordering
/// are the ``DeliveryWorker``'s, with the policy from the options (``deliveryPolicy``). It classifies answers:
/// 2xx delivered; 410 Gone disables the endpoint; any other 4xx outside `retryStatuses` dead-letters the event at
/// once; a 3xx is a failed attempt and is never followed; anything else (5xx, the retried 4xx, transport errors and
/// the timeout) is retried, after the `Retry-After` the answer carries, if any.
public struct WebhookSink: ManagedSink, SecretBearing {
    public let id: String
    let options: WebhookSinkPlugin.Options
    let key: [UInt8]?
    let http: any HTTPFetching
    let logger: Logger
    let time: TimeSource

    /// Creates the sink.
    /// - Parameters:
    ///   - id: the config id.
    ///   - options: endpoint, secret, headers, timeout and retry policy.
    ///   - http: the shared transport.
    ///   - logger: for per-attempt debug lines.
    ///   - time: the wall clock stamped into `webhook-timestamp` and read for `Retry-After` dates.
    public init(
        id: String,
        options: WebhookSinkPlugin.Options,
        http: any HTTPFetching,
        logger: Logger,
        time: TimeSource
    ) {
        self.id = id
        self.options = options
        self.key = options.secret.flatMap(WebhookSignature.key(from:)).map { $0.withUnsafeBytes { Array($0) } }
        self.http = http
        self.logger = logger
        self.time = time
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

    /// The endpoint as written (secrets unresolved): a persisted disable is dropped when it changes.
    /// A rotated secret in the URL counts as a change too: the written URL carries a digest of the resolved one.
    public var destination: String {
        let digest = SHA256.hash(data: Array(options.url.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
        return "\(options.displayURL) (\(digest))"
    }

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
        var fields = options.headerFields
        fields[.contentType] = "application/json"
        fields[.webhookID] = event.id
        fields[.webhookTimestamp] = "\(timestamp)"
        if let key {
            let signature = WebhookSignature.sign(
                key: SymmetricKey(data: key),
                id: event.id,
                timestamp: timestamp,
                body: event.body
            )
            fields[.webhookSignature] = signature
        }
        return HTTPRequestSpec(
            method: .post,
            url: options.url,
            headerFields: fields,
            body: event.body,
            budget: options.timeout,
            maxBodyBytes: 1 << 20,
            followRedirects: false
        )
    }

    /// One attempt; the second value is set when the endpoint is gone for good.
    func attempt(_ event: SinkEvent) async -> (DeliveryOutcome, String?) {
        let date = time.now()
        do {
            let response = try await http.fetch(request(event, timestamp: Int(date.timeIntervalSince1970)))
            logger.trace("webhook answered", metadata: ["sink": "\(id)", "status": "\(response.status.code)"])
            let status = response.status.code
            switch status {
            case 200..<300:
                return (.delivered, nil)
            case 410:
                let reason = "HTTP 410 Gone from \(options.displayURL): the endpoint asked not to be called again"
                return (.reject(reason: reason), reason)
            case 300..<400:
                let target = response.headerFields[.location].map { " to \($0)" } ?? ""
                return (.retry(after: nil, reason: "HTTP \(status) redirect\(target), not followed"), nil)
            case 400..<500 where !options.retryStatuses.contains(status):
                return (.reject(reason: "HTTP \(status), not retried: \(Self.excerpt(response.body))"), nil)
            default:
                let after = response.headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: date) }
                return (.retry(after: after, reason: "HTTP \(status)"), nil)
            }
        } catch HTTPFetchError.timeout(let budget) {
            return (.retry(after: nil, reason: "no answer within \(budget)"), nil)
        } catch HTTPFetchError.transport(let message) {
            return (.retry(after: nil, reason: message), nil)
        } catch {
            return (.retry(after: nil, reason: "\(error)"), nil)
        }
    }

    /// The start of a response body for an error message: at most 200 characters on one line.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
            .map { $0.isNewline || $0 == "\t" ? " " : $0 }
        let line = String(text).trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? "(empty body)" : JSONValue.quoted(line)
    }
}

extension HTTPField.Name {
    /// Standard Webhooks' message id, unique per event and the same on every retry.
    static let webhookID = Self("webhook-id")!
    /// Standard Webhooks' send time, unix seconds.
    static let webhookTimestamp = Self("webhook-timestamp")!
    /// Standard Webhooks' `v1,<base64 HMAC-SHA256>` signature(s).
    static let webhookSignature = Self("webhook-signature")!
}
