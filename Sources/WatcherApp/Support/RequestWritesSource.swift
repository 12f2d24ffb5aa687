import Foundation
import Logging
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherJSON
import WatcherRequests
import WatcherRules
import WatcherStatus
import WatcherStorage

/// The daemon's payment request writes for the status server (`POST /api/requests…`): ``RequestDesk`` on the
/// store, with the wallets and terms of the config in force when each request arrives.
enum RequestWritesSource {
    static func make(live: LiveState, store: Store, signal: LogSignal, logger: Logger)
        -> StatusServer.Sources.RequestWrites
    {
        let log = EventLog(store: store, signal: signal)
        return .init(
            create: { order in
                let watches = live.config.watches
                guard let watch = watches.first(where: { $0.kind == .wallet && $0.id == order.wallet }),
                    let terms = watch.requests,
                    let wallet = WalletBook.load(chain: watch.chain, watches: [watch]).wallets[watch.id]
                else { throw RequestOrder.Refusal("wallet", "no wallet \"\(order.wallet)\" that takes requests") }
                let created = try await RequestDesk.create(
                    order,
                    wallet: wallet,
                    terms: terms,
                    chain: watch.chain,
                    log: log,
                    builder: EventBuilder(),
                    now: Date()
                )
                if let warning = created.warning {
                    logger.warning("\(warning)", metadata: ["request": "\(created.request.id)"])
                }
                let tip = try store.read { try $0.tip(chain: watch.chain)?.height }
                return (.object(RequestEvents.json(created.request, tipHeight: tip)), created.isNew, created.warning)
            },
            cancel: { id, note in
                let chain = try chain(of: id, store: store, watches: live.config.watches)
                let request = try await RequestDesk.cancel(
                    id: id,
                    chain: chain,
                    note: note,
                    log: log,
                    builder: EventBuilder()
                )
                return .object(
                    RequestEvents.json(request, tipHeight: try store.read { try $0.tip(chain: chain)?.height })
                )
            },
            mark: { id, status, note in
                let chain = try chain(of: id, store: store, watches: live.config.watches)
                let request = try await RequestDesk.mark(
                    id: id,
                    chain: chain,
                    as: status,
                    note: note,
                    log: log,
                    builder: EventBuilder()
                )
                return .object(
                    RequestEvents.json(request, tipHeight: try store.read { try $0.tip(chain: chain)?.height })
                )
            }
        )
    }

    /// The chain whose store holds request `id`.
    static func chain(of id: String, store: Store, watches: [WatchConfig]) throws -> String {
        let chains = Set(watches.filter { $0.kind == .wallet }.map(\.chain)).sorted()
        for chain in chains where try store.read({ try $0.request(chain: chain, id: id) }) != nil { return chain }
        throw RequestActions.NotFound(id: id)
    }
}
