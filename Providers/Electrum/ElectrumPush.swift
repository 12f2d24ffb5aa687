import Logging
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Scripthash and header subscriptions as a ``ChainPushing``, on a connection of its own: every followed address's
/// scripthash is subscribed (in pipelined batches of 100), and a status change, an opaque token, makes it read the
/// address's history again and report each transaction that is new or moved (``PushEvent/addressTx(address:txid:deltaSat:confirmed:)``
/// with no delta: the engine asks the provider). A header notification is a ``PushEvent/newBlock(height:hash:)``.
/// The address set is compared every second: new addresses (a wallet window that grew) are subscribed, dropped ones
/// unsubscribed, on the same connection. After each header, and every 5 minutes (among statuses answered at least
/// 5 minutes before), a rotating slice of 100 scripthashes is subscribed again and its statuses compared, so a
/// notification the server missed is caught within a few blocks.
/// Unless the server is Fulcrum, the subscriptions' statuses are lent to the provider's address summaries
/// (``ElectrumStatusBook``): an unused address needs no summary request.
public struct ElectrumPush: ChainPushing {
    /// Subscriptions sent at once before waiting for their answers.
    static let batchSize = 100
    /// Scripthashes re-subscribed after each header and at each recheck, to catch a missed notification.
    static let recheckSlice = 100

    public let maxAddresses: Int
    /// A status notification follows every change of a script's history (mempool, block, reorg), and the rotating
    /// re-check catches one the server missed.
    public var pushesEveryChange: Bool { true }
    /// The address set is compared every ``followInterval``: a grown window costs its new addresses only.
    public var followsGrowth: Bool { true }
    let link: ElectrumLink
    /// Where the subscriptions' statuses are lent to the provider's summaries.
    var statuses: ElectrumStatusBook?
    /// What the connection covers, for `check`-like reports and tests: the followed addresses left to polling by
    /// the server's subscription cap.
    public let coverage = ElectrumPushCoverage()
    /// How often the address set is compared with the subscribed one.
    var followInterval: Duration = .seconds(1)
    /// How often a slice of the subscriptions is re-checked besides after each header: the header's re-check covers
    /// a notification missed at a block boundary, this one a mempool notification missed between blocks.
    var recheckInterval: Duration = .seconds(300)

    /// What the connection hands the follow loop.
    enum Note: Sendable {
        case notification(String, [JSONValue])
        case closed(String)
    }

    public func follow(
        addresses: @escaping @Sendable () async -> [String],
        onEvent: @escaping @Sendable (PushEvent) async -> Void
    ) async throws {
        let (notes, sink) = AsyncStream<Note>.makeStream()
        let (client, server) = try await link.openSession(
            onNotification: { sink.yield(.notification($0, $1)) },
            onClose: { reason in
                sink.yield(.closed(reason))
                sink.finish()
            }
        )
        defer { client.close() }
        let state = ElectrumPushState(link: link, client: client)
        // Fulcrum answers the status of a history past its max_history as null: its statuses are not lent.
        var lent: Int?
        if let statuses, !server.software.lowercased().contains("fulcrum") {
            let session = statuses.attach { scripthash, address in
                await state.subscribeNow(scripthash, address: address)
            }
            await state.lend(to: statuses, session: session)
            lent = session
        }
        defer { if let lent { statuses?.detach(lent) } }
        let tip = try await state.call("blockchain.headers.subscribe", [])
        if let block = state.block(tip) { await onEvent(.newBlock(height: block.height, hash: block.hash)) }
        try await state.follow(await addresses())
        await report(state)
        await onEvent(.subscribed)
        let (every, recheck) = (followInterval, recheckInterval)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var lastRecheck = ContinuousClock.now
                while true {
                    try await Task.sleep(for: every)
                    try await state.follow(await addresses())
                    await report(state)
                    guard ContinuousClock.now - lastRecheck >= recheck else { continue }
                    lastRecheck = ContinuousClock.now
                    for event in try await state.recheck(count: Self.recheckSlice, olderThan: recheck) {
                        await onEvent(event)
                    }
                }
            }
            group.addTask {
                for await note in notes {
                    switch note {
                    case .closed(let reason):
                        throw ProviderError.unavailable(
                            provider: link.provider,
                            status: nil,
                            detail: "push connection to \(link.endpoint) closed: \(reason)"
                        )
                    case .notification("blockchain.headers.subscribe", let params):
                        if let header = params.first, let block = state.block(header) {
                            await onEvent(.newBlock(height: block.height, hash: block.hash))
                        }
                        for event in try await state.recheck(count: Self.recheckSlice) { await onEvent(event) }
                    case .notification("blockchain.scripthash.subscribe", let params):
                        guard params.count == 2, let scripthash = params[0].stringValue else { continue }
                        for event in try await state.changed(scripthash, status: params[1].stringValue) {
                            await onEvent(event)
                        }
                    case .notification:
                        continue
                    }
                }
                throw ProviderError.unavailable(provider: link.provider, status: nil, detail: "push connection ended")
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// Records the connection's coverage, and warns once per connection when the cap leaves addresses uncovered.
    private func report(_ state: ElectrumPushState) async {
        let refused = coverage.update(tooLarge: await state.tooLarge)
        if !refused.isEmpty {
            let names = refused.sorted().joined(separator: ", ")
            let message =
                "\(link.provider): the server refuses the history of \(names) as longer than its limit (ElectrumX "
                + "error \(ElectrumLink.historyTooLarge)); these addresses are left to their watch's polls, the "
                + "others stay pushed"
            coverage.logger.warning("\(message)")
        }
        let (capped, uncovered, subscribed) = await (state.capped, state.uncovered, state.count)
        guard coverage.update(capped: capped, uncovered: uncovered, subscribed: subscribed) else { return }
        let first = uncovered.prefix(3).joined(separator: ", ")
        let more = uncovered.count > 3 ? ", …" : ""
        let message =
            "\(link.provider): the server's subscription limit (Fulcrum's max_subs_per_ip) stopped the push at "
            + "\(subscribed) addresses; \(uncovered.count) more (\(first)\(more)) are polled at their watch's "
            + "interval: raise max_subs_per_ip to push them all"
        coverage.logger.warning("\(message)")
    }
}
