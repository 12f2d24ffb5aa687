import WatcherCore
import WatcherHTTP
import WatcherSinks
import WatcherStorage
import WatcherTesting

/// The common case of ``withWebhookSetup(clock:_:_:)``: one receiver answering by `behaviour`, and the sink "hook"
/// posting to it with `options` (the ``hookOptions(_:timeout:maxAttempts:maxAge:initialBackoff:maxBackoff:)``
/// defaults unless given). `body` gets the store, the receiver, the sink and the transport (for more sinks).
package func withOneWebhook(
    clock: ManualClock? = nil,
    options: @Sendable (_ url: String) -> WebhookSinkPlugin.Options = { hookOptions($0) },
    answering behaviour: @escaping TestReceiver.Behaviour,
    _ body: @Sendable (Store, TestReceiver, WebhookSink, HTTPTransport) async throws -> Void
) async throws {
    try await withWebhookSetup(clock: clock, [behaviour]) { store, http, receivers in
        let receiver = receivers[0]
        try await body(store, receiver, webhookSink(options(receiver.url), http), http)
    }
}
