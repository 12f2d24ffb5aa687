import Foundation
import Synchronization
import WatcherCore
import WatcherJSON
import WatcherZMQ

/// The simulated world every face serves: the chain and prices (its ``State``) behind one lock, the traffic policy
/// behind another, and the faces' own switches (node, ZMQ, Electrum, the websocket hub). Readers take a
/// copy-on-write snapshot of the state under the lock and render outside it, so slow renders never block other
/// requests. The control API's verbs (mine, pay, reorg, replace) change it.
final class SimnetWorld: Sendable {
    struct State: Sendable {
        var chain: ChainModel
        var prices: PriceModel
        /// Addresses the Blockbook face answers as unused, and txids it answers as not found (`POST /control/hide`):
        /// a provider lying by omission.
        var hidden: Set<String> = []
        /// The next-block fee rate in sat/vB every face estimates (`POST /control/fee`), a multiple of 0.001
        /// (``SimnetWorld/servedFeeRate(_:)``).
        var feeRate: Decimal = SimnetWorld.defaultFeeRate
    }

    /// The next-block fee rate until one is set: 10 sat/vB.
    static let defaultFeeRate: Decimal = 10

    let clock: TimeSource
    /// The network the chain plays (fixed for the simnet's life).
    let network: SimnetNetwork
    /// The websocket's connections and subscriptions.
    let hub: PushHub
    private let state: Mutex<State>
    private let traffic: Mutex<TrafficPolicy>
    /// The Bitcoin Core face's switches and credentials.
    let node: NodeState
    /// The Bitcoin Core face's ZMQ publisher (off until the simnet binds it).
    let zmq = SimnetZMQ()
    /// The Electrum face (off until the simnet binds it).
    let electrum: SimnetElectrum

    init(configuration: SimnetConfiguration) {
        network = configuration.chain.network
        clock = configuration.clock
        node = NodeState(configuration: configuration)
        electrum = SimnetElectrum(settings: configuration.electrum)
        hub = PushHub(
            limits: configuration.websocketLimits,
            clock: configuration.clock,
            offered: configuration.websocket
        )
        var prices = PriceModel(seed: configuration.chain.seed, prices: configuration.initialPrices)
        prices.updatedAt = configuration.clock.unixSeconds
        state = Mutex(State(chain: ChainModel(parameters: configuration.chain), prices: prices))
        var policy = TrafficPolicy(seed: configuration.chain.seed)
        let now = configuration.clock.unixSeconds
        for (family, limit) in configuration.rateLimits.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            policy.setRateLimit(limit, for: family, now: now)
        }
        traffic = Mutex(policy)
    }

    /// A consistent copy of chain and prices.
    func snapshot() -> State {
        state.withLock { $0 }
    }

    /// Hides `address` (or a txid) from the Blockbook face's address (or transaction) endpoint, or shows it again.
    func hide(_ address: String, _ hidden: Bool) -> Set<String> {
        state.withLock { world in
            if hidden { world.hidden.insert(address) } else { world.hidden.remove(address) }
            return world.hidden
        }
    }

    func mine(count: Int) throws(ChainModel.Failure) -> [SimBlock] {
        let now = clock.unixSeconds
        let (blocks, entered) = try state.withLock { world throws(ChainModel.Failure) in
            let waiting = world.chain.mempool
            let before = Set(waiting)
            let blocks = try world.chain.mine(count: count)
            for _ in blocks { world.prices.step() }
            world.prices.updatedAt = now
            let entered = world.chain.mempool.filter { !before.contains($0) }
            if zmq.isOn {
                // Core's order: the block connects (`C`), the tip moves (`hashblock`), then the mempool refills.
                var notes = blocks.flatMap { [ZMQNotification.blockConnected($0.hash), .hashBlock($0.hash)] }
                notes += SimnetZMQ.mempoolChanges(
                    before: waiting,
                    after: world.chain.mempool,
                    confirmed: Set(blocks.flatMap(\.txids)),
                    sequence: world.chain.mempoolSequence
                )
                zmq.publish(notes)
            }
            return (blocks, Self.pushed(entered, world.chain))
        }
        hub.publish(blocks: blocks.map { ($0.height, $0.hash) })
        hub.publish(transactions: entered)
        electrum.chainChanged(world: self)
        return blocks
    }

    func pay(
        to address: SimAddress,
        amountSat: Int64,
        from: SimAddress? = nil,
        change: SimAddress? = nil,
        rbf: Bool = true
    ) throws(ChainModel.Failure) -> SimTransaction {
        let (tx, pushed) = try state.withLock { world throws(ChainModel.Failure) in
            let tx = try world.chain.pay(to: address, amountSat: amountSat, from: from, change: change, rbf: rbf)
            zmq.publish([.mempoolAdded(txid: tx.txid, mempoolSequence: UInt64(max(0, world.chain.mempoolSequence)))])
            return (tx, Self.pushed([tx.txid], world.chain))
        }
        hub.publish(transactions: pushed)
        electrum.chainChanged(world: self)
        return tx
    }

    /// Transactions as address pushes carry them: the addresses they touch and their Blockbook JSON.
    static func pushed(_ txids: [String], _ chain: ChainModel) -> [(touched: Set<String>, json: JSONValue)] {
        let render = BlockbookTxJSON(chain: chain)
        return txids.compactMap { chain.transaction($0) }.map { tx in
            (Set(tx.inputs.map(\.address) + tx.outputs.compactMap(\.address)), render.full(tx))
        }
    }

    /// Blockbook's websocket pushes each block the new branch connects, lowest first (none for the disconnected
    /// ones: a push can repeat or lower the height, Blockbook #196), as the node's ZMQ announces both.
    func reorg(depth: Int) throws(ChainModel.Failure) -> [ReorgedBlock] {
        defer { electrum.chainChanged(world: self) }
        let (replaced, connected) = try state.withLock { world throws(ChainModel.Failure) in
            let waiting = world.chain.mempool
            let replaced = try world.chain.reorg(depth: depth)
            let chain = world.chain
            let connected = (replaced.map(\.height).min() ?? chain.tip.height)...chain.tip.height
            if zmq.isOn {
                // Disconnected blocks top first, connected ones bottom first, and one `hashblock`: the new tip.
                let ordered = replaced.sorted { $0.height < $1.height }
                var notes = ordered.reversed().map { ZMQNotification.blockDisconnected($0.oldHash) }
                notes += ordered.map { ZMQNotification.blockConnected($0.newHash) }
                notes.append(.hashBlock(world.chain.tip.hash))
                let chain = world.chain
                notes += SimnetZMQ.mempoolChanges(
                    before: waiting,
                    after: chain.mempool,
                    confirmed: Set(ordered.flatMap { chain.block(hash: $0.newHash)?.txids ?? [] }),
                    sequence: chain.mempoolSequence
                )
                zmq.publish(notes)
            }
            return (replaced, connected.compactMap { chain.block(height: $0) }.map { ($0.height, $0.hash) })
        }
        hub.publish(blocks: connected)
        return replaced
    }

    func replace(_ txid: String, payTo: SimAddress? = nil) throws(ChainModel.Failure) -> SimTransaction {
        let (tx, pushed) = try state.withLock { world throws(ChainModel.Failure) in
            let tx = try world.chain.replace(txid, payTo: payTo)
            let sequence = UInt64(max(0, world.chain.mempoolSequence))
            zmq.publish([
                .mempoolRemoved(txid: txid, mempoolSequence: sequence),
                .mempoolAdded(txid: tx.txid, mempoolSequence: sequence),
            ])
            return (tx, Self.pushed([tx.txid], world.chain))
        }
        hub.publish(transactions: pushed)
        electrum.chainChanged(world: self)
        return tx
    }

    /// Drops a mempool transaction and its descendants (`POST /control/evict`).
    func evict(_ txid: String) throws(ChainModel.Failure) -> [String] {
        try state.withLock { world throws(ChainModel.Failure) in
            let gone = try world.chain.evictFromMempool(txid)
            let sequence = UInt64(max(0, world.chain.mempoolSequence))
            zmq.publish(gone.map { .mempoolRemoved(txid: $0, mempoolSequence: sequence) })
            return gone
        }
    }

    func setPrices(_ prices: [PriceCurrency: Decimal]) -> [PriceCurrency: Decimal] {
        let now = clock.unixSeconds
        return state.withLock { world in
            world.prices.set(prices)
            world.prices.updatedAt = now
            return world.prices.prices
        }
    }

    /// Sets the next-block fee rate to `satPerVB` rounded to the nearest 0.001 sat/vB (half up): what the faces can
    /// write in 8 decimals of BTC/kvB. A rate that rounds below 0.001, or past 21,000,000 BTC/kvB, is refused.
    /// - Returns: the rate set, `nil` when refused.
    func setFeeRate(_ satPerVB: Decimal) -> Decimal? {
        guard let served = Self.servedFeeRate(satPerVB) else { return nil }
        state.withLock { $0.feeRate = served }
        return served
    }

    /// `satPerVB` as the faces serve it: rounded to whole sat/kvB (0.001 sat/vB), half up; `nil` when that is not
    /// positive or too large for an amount of BTC.
    static func servedFeeRate(_ satPerVB: Decimal) -> Decimal? {
        guard let satPerKvB = FeeRate.satPerKvB(satPerVB), satPerKvB > 0 else { return nil }
        return Decimal(satPerKvB) / 1_000
    }

    func admit(family: ProviderFamily, path: String, endpoints: [String]? = nil) -> TrafficPolicy.Admission {
        let now = clock.unixSeconds
        return traffic.withLock { $0.admit(family: family, path: path, endpoints: endpoints, now: now) }
    }

    func log(family: ProviderFamily, path: String, status: Int, fault: FaultConfiguration.Kind?) {
        let now = clock.unixSeconds
        traffic.withLock { $0.log(family: family, path: path, status: status, retryAfter: nil, fault: fault, now: now) }
    }

    func setRateLimit(_ limit: RateLimit?, for family: ProviderFamily) {
        let now = clock.unixSeconds
        traffic.withLock { $0.setRateLimit(limit, for: family, now: now) }
    }

    func setFaults(_ configuration: FaultConfiguration?, for family: ProviderFamily) {
        traffic.withLock { $0.setFaults(configuration, for: family) }
    }

    func stats() -> SimnetStats {
        traffic.withLock { $0.stats }
    }

    func resetStats() {
        traffic.withLock { $0.resetStats() }
    }
}
