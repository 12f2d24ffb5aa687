import Hummingbird
import NIOCore

/// The status server's request context: Hummingbird's basic one plus the connection, so that the event stream learns
/// at once when its client goes away (its handler would otherwise wait for the next write to fail, leaving the
/// socket in CLOSE-WAIT).
struct StatusRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Calls `body` once when the client closes its side of the connection or the connection closes.
    func onDisconnect(_ body: @escaping @Sendable () -> Void) {
        channel.closeFuture.whenComplete { _ in body() }
        _ = channel.pipeline.addHandler(InputClosedHandler(body), position: .first)
    }
}

/// Passes every event on, and reports the client's end of input (a half-close: the server allows them).
final class InputClosedHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    let onClose: @Sendable () -> Void

    init(_ onClose: @escaping @Sendable () -> Void) { self.onClose = onClose }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { onClose() }
        context.fireUserInboundEventTriggered(event)
    }
}
