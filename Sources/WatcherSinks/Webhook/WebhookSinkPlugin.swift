import WatcherCore

/// The `webhook` sink: signed POSTs per Standard Webhooks v1, retried, dead-lettered, ordered per endpoint.
public enum WebhookSinkPlugin: SinkPlugin {
    /// Options of a `webhook` sink.
    public struct Options: PluginOptions {
        /// The endpoint.
        public var url: String
        /// The signing secret, `whsec_` + base64 (from `${ENV}`).
        public var secret: String?
        /// Extra headers.
        public var headers: [(name: String, value: String)]
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

        /// Creates options in code (tests, embedding); the config reads them with ``init(from:)``.
        public init(
            url: String,
            secret: String? = nil,
            headers: [(name: String, value: String)] = [],
            timeout: Duration = .seconds(10),
            maxAttempts: Int = 10,
            maxAge: Duration = .seconds(86_400),
            initialBackoff: Duration = .seconds(1),
            maxBackoff: Duration = .seconds(300)
        ) {
            self.url = url
            self.secret = secret
            self.headers = headers
            self.timeout = timeout
            self.maxAttempts = maxAttempts
            self.maxAge = maxAge
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
        }

        public init(from reader: ObjectReader) {
            url = reader.url("url", required: true, doc: "The endpoint to POST events to.") ?? ""
            secret = reader.secret("secret", doc: "Signing secret (whsec_ + base64), written as ${ENV_NAME}.")
            if let secret, !WebhookSignature.isValidSecret(secret) {
                reader.context.error(reader.path.key("secret"), "expected a secret of the form whsec_<base64>")
            }
            headers = reader.stringMap("headers", doc: "Extra request headers.")
            timeout =
                reader.duration("timeout", default: .seconds(10), minimum: .milliseconds(100), doc: "Time per attempt.")
                ?? .seconds(10)
            maxAttempts =
                reader.int("maxAttempts", default: 10, range: 1...1000, doc: "Attempts before dead-lettering.") ?? 10
            maxAge =
                reader.duration("maxAge", default: .seconds(86_400), doc: "Dead-letter events older than this.")
                ?? .seconds(86_400)
            initialBackoff =
                reader.duration(
                    "initialBackoff",
                    default: .seconds(1),
                    minimum: .milliseconds(1),
                    doc: "First retry delay."
                )
                ?? .seconds(1)
            maxBackoff =
                reader.duration("maxBackoff", default: .seconds(300), doc: "Longest retry delay.") ?? .seconds(300)
        }
    }

    public static let descriptor = PluginDescriptor(
        type: "webhook",
        role: .sink,
        summary: "POSTs each event signed per Standard Webhooks v1; retries, honours Retry-After, dead-letters.",
        capabilities: ["signing", "retry", "deadletters", "ordered"],
        defaultRateLimit: nil
    )

    public static func make(id: String, options: Options, context: PluginContext) throws -> any Sink {
        WebhookSink(id: id, options: options, http: context.http, logger: context.logger)
    }
}
