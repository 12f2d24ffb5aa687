import WatcherCore
import WatcherHTTP
import WatcherSinks
import WatcherStorage
import WatcherTesting

/// What each webhook test starts from: runs `body` with a fresh store, the daemon's HTTP transport and one listening
/// receiver per behaviour (stamping arrivals with `clock` when given); all stopped and removed afterwards.
package func withWebhookSetup(
    clock: ManualClock? = nil,
    _ behaviours: [TestReceiver.Behaviour],
    _ body: @Sendable (Store, HTTPTransport, [TestReceiver]) async throws -> Void
) async throws {
    try await withStore { store, _ in
        try await withTransport { http in
            try await withReceivers(clock: clock, behaviours) { receivers in
                try await body(store, http, receivers)
            }
        }
    }
}

/// A webhook sink `id` with `options`, over `http`, logging nothing, its retries on the wall clock (the receivers').
package func webhookSink(_ options: WebhookSinkPlugin.Options, _ http: HTTPTransport, id: String = "hook")
    -> WebhookSink
{
    WebhookSink(id: id, options: options, http: http, logger: quietLogger, time: .system)
}
