import HTTPTypes
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// The `webhook` sink: signed POSTs per Standard Webhooks v1, retried, dead-lettered, ordered per endpoint.
public enum WebhookSinkPlugin: SinkPlugin {
    /// Options of a `webhook` sink.
    public struct Options: PluginOptions, SecretBearing {
        /// The endpoint.
        public var url: String
        /// The endpoint as written in the config, `${NAME}` references unresolved: what logs, errors and dead
        /// letters show, so that a token in the URL never leaks.
        public var displayURL: String
        /// The signing secret, `whsec_` + base64 (from `${ENV}`).
        public var secret: String?
        /// Extra header fields.
        public var headerFields: HTTPFields
        /// Time for one attempt.
        public var timeout: Duration
        /// Attempts before dead-lettering.
        public var maxAttempts: Int
        /// Age after which an undelivered event is dead-lettered.
        public var maxAge: Duration
        /// First retry delay; doubles per attempt with full jitter.
        public var initialBackoff: Duration
        /// Longest retry delay.
        public var maxBackoff: Duration
        /// The 4xx statuses that are retried; any other 4xx dead-letters the event at once (410 also disables the
        /// endpoint).
        public var retryStatuses: Set<Int>

        /// The 4xx statuses retried by default: timeout, conflict, too early, too many requests.
        public static let defaultRetryStatuses: Set<Int> = [408, 409, 425, 429]

        /// Creates options in code (tests, embedding); the config reads them with ``init(from:)``.
        public init(
            url: String,
            secret: String? = nil,
            headerFields: HTTPFields = [:],
            timeout: Duration = .seconds(10),
            maxAttempts: Int = 10,
            maxAge: Duration = .seconds(86_400),
            initialBackoff: Duration = .seconds(1),
            maxBackoff: Duration = .seconds(300),
            retryStatuses: Set<Int> = Options.defaultRetryStatuses
        ) {
            self.url = url
            self.displayURL = url
            self.secret = secret
            self.headerFields = headerFields
            self.timeout = timeout
            self.maxAttempts = maxAttempts
            self.maxAge = maxAge
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.retryStatuses = retryStatuses
        }

        public init(from reader: ObjectReader) {
            url = reader.url("url", required: true, doc: "The endpoint to POST events to.") ?? ""
            displayURL = reader.written("url") ?? url
            secret = reader.secret("secret", doc: "Signing secret (whsec_ + base64), written as ${ENV_NAME}.")
            if let secret, !WebhookSignature.isValidSecret(secret) {
                reader.context.error(reader.path.key("secret"), "expected a secret of the form whsec_<base64>")
            }
            headerFields = reader.headerFields("headers", doc: "Extra request headers.")
            timeout =
                reader.duration("timeout", default: .seconds(10), minimum: .milliseconds(100), doc: "Time per attempt.")
            (maxAttempts, maxAge, initialBackoff, maxBackoff) = DeliveryPolicy.readRetryOptions(
                reader,
                maxAttempts: 10,
                maxBackoff: .seconds(300)
            )
            retryStatuses = Self.readRetryStatuses(reader)
        }

        /// `retryStatuses`: integers from 400 to 499; absent means the default set.
        static func readRetryStatuses(_ reader: ObjectReader) -> Set<Int> {
            let items = reader.array(
                "retryStatuses",
                doc: "4xx statuses that are retried (default [408, 409, 425, 429]); any other 4xx dead-letters the "
                    + "event after one attempt."
            )
            guard reader.has("retryStatuses") else { return defaultRetryStatuses }
            var statuses: Set<Int> = []
            for (path, value) in items {
                guard case .number(let text) = value, let status = Int(text), (400...499).contains(status) else {
                    let got: String = if case .number(let text) = value { text } else { value.typeDescription }
                    reader.context.error(path, "expected an HTTP status from 400 to 499, got \(got)")
                    continue
                }
                statuses.insert(status)
            }
            return statuses
        }

    }

    public static let descriptor = PluginDescriptor.sink(
        type: "webhook",
        summary:
            "POSTs each event signed per Standard Webhooks v1; retries, honours Retry-After, dead-letters a 4xx, never follows a redirect.",
        capabilities: ["signing", "retry", "deadletters", "ordered"]
    )

    public static func make(id: String, options: Options, context: PluginContext) throws -> any Sink {
        WebhookSink(id: id, options: options, http: context.http, logger: context.logger, time: context.time)
    }
}
