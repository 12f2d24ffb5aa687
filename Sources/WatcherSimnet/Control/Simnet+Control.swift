import Foundation
import WatcherCore

/// In-process equivalents of the `/control/` API.
extension Simnet {
    /// Mines `count` blocks now (`POST /control/mine`).
    /// - Returns: the new blocks' heights and hashes, lowest first.
    /// - Throws: ``Failure/chain(_:)`` when `count` is outside 1...1000.
    @discardableResult
    public func mine(count: Int = 1) async throws -> [BlockRef] {
        do {
            return try world.mine(count: count).map(\.ref)
        } catch {
            throw Failure.chain(error)
        }
    }

    /// Sends `amountSat` to `address` (`POST /control/tx`): from the funded addresses, or, with `from`, from that
    /// address's unspent outputs with the change to `change` (default: back to `from`). The transaction waits in
    /// the mempool and is mined in the next block.
    /// - Returns: the txid.
    /// - Throws: ``Failure/invalidAddress(_:_:)`` or ``Failure/chain(_:)``.
    @discardableResult
    /// - Parameter rbf: whether the inputs signal replace-by-fee (BIP125 nSequence `0xfffffffd`; otherwise
    ///   `0xfffffffe`, final but lock-time enabled).
    public func pay(
        to address: String,
        amountSat: Int64,
        from: String? = nil,
        change: String? = nil,
        rbf: Bool = true
    ) async throws -> String {
        func decode(_ text: String) throws -> SimAddress {
            do {
                return try SimAddressParser.decode(text, network: configuration.chain.network)
            } catch {
                throw Failure.invalidAddress(text, error)
            }
        }
        let decoded = try decode(address)
        let source = try from.map(decode)
        let back = try change.map(decode)
        do {
            return try world.pay(to: decoded, amountSat: amountSat, from: source, change: back, rbf: rbf).txid
        } catch {
            throw Failure.chain(error)
        }
    }

    /// Replaces the top `depth` blocks with a competing branch (`POST /control/reorg`).
    /// - Returns: each replaced height with its old and new hash.
    /// - Throws: ``Failure/chain(_:)`` unless `depth` is at least 1 and leaves the funding block.
    @discardableResult
    public func reorg(depth: Int) async throws -> [ReorgedBlock] {
        do {
            return try world.reorg(depth: depth)
        } catch {
            throw Failure.chain(error)
        }
    }

    /// Replaces a mempool transaction (`POST /control/replace`): the same inputs at a higher fee, paying a fresh
    /// outside address. The replaced transaction and its mempool descendants are gone.
    /// - Returns: the replacement's txid.
    /// - Throws: ``Failure/chain(_:)`` when `txid` is not in the mempool.
    /// - Parameter payTo: the address the replacement pays (default: a fresh outside address).
    @discardableResult
    public func replace(_ txid: String, payTo: String? = nil) async throws -> String {
        var target: SimAddress?
        if let payTo {
            do {
                target = try SimAddressParser.decode(payTo, network: configuration.chain.network)
            } catch {
                throw Failure.invalidAddress(payTo, error)
            }
        }
        do {
            return try world.replace(txid, payTo: target).txid
        } catch {
            throw Failure.chain(error)
        }
    }

    /// Drops a mempool transaction and its mempool descendants (`POST /control/evict`), as a node's mempool drops
    /// what expired or no longer fits; the outputs it spent are unspent again.
    /// - Returns: the txids dropped, `txid` first.
    /// - Throws: ``Failure/chain(_:)`` when `txid` is not in the mempool.
    @discardableResult
    public func evict(_ txid: String) async throws -> [String] {
        do {
            return try world.evict(txid)
        } catch {
            throw Failure.chain(error)
        }
    }

    /// Sets some prices (`POST /control/price`); non-positive values are ignored.
    /// - Returns: all current prices.
    @discardableResult
    public func setPrices(_ prices: [PriceCurrency: Decimal]) async -> [PriceCurrency: Decimal] {
        world.setPrices(prices)
    }

    /// The current prices.
    public func prices() async -> [PriceCurrency: Decimal] {
        world.snapshot().prices.prices
    }

    /// Sets the next-block fee rate every face estimates, in sat/vB (`POST /control/fee`): Blockbook's
    /// `/api/v2/estimatefee/<n>`, Core's `estimatesmartfee` and Electrum's `blockchain.estimatefee` answer it as BTC
    /// per kvB with 8 decimals, whatever the target. A rate finer than 0.001 sat/vB is rounded to the nearest 0.001
    /// (half up), so ``feeRate()`` is what the faces serve; a rate that rounds to 0 or below, or past 21,000,000
    /// BTC/kvB, is ignored (as ``setPrices(_:)`` ignores non-positive prices). The default is 10 sat/vB.
    public func setFeeRate(_ satPerVB: Decimal) async {
        _ = world.setFeeRate(satPerVB)
    }

    /// The next-block fee rate in sat/vB the faces serve (`GET /control/fee`).
    public func feeRate() async -> Decimal {
        world.snapshot().feeRate
    }

    /// Sets a family's rate limit (`POST /control/ratelimit`); `nil` or `requests == 0` turns it off.
    /// The bucket starts full.
    public func setRateLimit(family: ProviderFamily, _ limit: RateLimit?) async {
        world.setRateLimit(limit, for: family)
    }

    /// Sets a family's fault injection (`POST /control/faults`); `nil` or rate 0 turns it off.
    public func setFaults(family: ProviderFamily, _ faults: FaultConfiguration?) async {
        world.setFaults(faults, for: family)
    }

    /// The Bitcoin Core face's switches (`GET /control/bitcoind`).
    public func nodeSettings() async -> NodeSettings {
        world.node.currentSettings
    }

    /// Sets the Bitcoin Core face's switches (`POST /control/bitcoind`): warm-up (-28), a full work queue (503),
    /// forbidden methods (403).
    public func setNodeSettings(_ settings: NodeSettings) async {
        world.node.set(settings)
    }

    /// The Electrum face's personality and switches.
    public func electrumSettings() async -> ElectrumSettings {
        world.electrum.currentSettings
    }

    /// Sets the Electrum face's personality and switches; sessions already open keep their negotiated version.
    public func setElectrumSettings(_ settings: ElectrumSettings) async {
        world.electrum.set(settings)
    }

    /// Closes every open Electrum connection (`POST /control/electrum {"dropConnections": true}`).
    public func dropElectrumConnections() {
        world.electrum.dropConnections()
    }

    /// How many Electrum clients are connected.
    public var electrumConnections: Int { world.electrum.connectionCount }

    /// The password of the cookie user `__cookie__` (what ``SimnetConfiguration/cookieFile`` holds).
    public var rpcCookie: String { world.node.credentials.cookie }

    /// Replaces the cookie, as a restarted node does (`POST /control/bitcoind {"rotateCookie": true}`), and
    /// rewrites the cookie file; the old cookie gets 401 from now on.
    /// - Throws: when the cookie file cannot be written.
    public func rotateCookie() async throws {
        try world.node.rotateCookie()
    }

    /// Request counters and the recent request log (`GET /control/stats`).
    public func stats() async -> SimnetStats {
        world.stats()
    }

    /// Zeroes the counters and empties the log.
    public func resetStats() async {
        world.resetStats()
    }

    /// The true state of every funded address and every address paid via ``pay(to:amountSat:)``
    /// (`GET /control/addresses`).
    public func addresses() async -> [AddressTruth] {
        world.snapshot().chain.truths()
    }

    /// Makes the Blockbook face answer `item` (an address) as unused, or (a txid) as not found (`hidden: false`
    /// shows it again), as a provider lying by omission would (`POST /control/hide`). Other endpoints (blocks, the
    /// other addresses and transactions) still tell the truth.
    public func hide(_ item: String, hidden: Bool = true) async {
        _ = world.hide(item, hidden)
    }

    /// The best block.
    public func tip() async -> BlockRef {
        world.snapshot().chain.tip.ref
    }

    /// A copy of the whole chain model, for assertions that need more than the truths.
    public func chain() async -> ChainModel {
        world.snapshot().chain
    }

    /// What the websocket served.
    public func websocketStats() -> WebSocketStats {
        world.hub.stats
    }

    /// The addresses the websocket's open connections are subscribed to now.
    public func websocketSubscribedAddresses() -> Set<String> {
        world.hub.subscribedAddresses
    }

    /// Replaces the websocket's limits and lifts any ban.
    public func setWebSocketLimits(_ limits: WebSocketLimits) {
        world.hub.setLimits(limits)
    }

    /// Closes every open websocket connection.
    public func dropWebSockets() {
        world.hub.dropAll()
    }
}
