import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// A `ChainProvider` over one Electrum server (electrs, Fulcrum, ElectrumX): tip and headers, address summaries
/// and histories by scripthash, transactions as raw hex decoded locally. The protocol has no block contents, so no
/// block transaction pages.
public struct ElectrumProvider: ChainProvider {
    public let id: String
    public var capabilities: ChainCapabilities { ElectrumPlugin.descriptor.chainCapabilities }
    let link: ElectrumLink
    let cache = ElectrumCache()
    /// The push connection's subscription statuses, lent to ``address(_:)``.
    let statuses = ElectrumStatusBook()
    let network: BitcoinAddress.Network
    let expectedGenesis: String?

    /// The push connection's capacity (`nil`: push off).
    let pushAddresses: Int?

    init(
        id: String,
        endpoint: ElectrumEndpoint,
        chain: String?,
        timeout: Duration,
        maxLineLength: Int,
        pushAddresses: Int? = nil
    ) {
        self.pushAddresses = pushAddresses
        self.id = id
        self.network = ElectrumChain.network(chain)
        self.expectedGenesis = ElectrumChain.genesis(chain)
        self.link = ElectrumLink(
            provider: id,
            endpoint: endpoint,
            expectedGenesis: expectedGenesis,
            timeout: timeout,
            maxLineLength: maxLineLength
        )
    }

    public var push: (any ChainPushing)? {
        pushAddresses.map {
            var push = ElectrumPush(maxAddresses: $0, link: link)
            push.statuses = statuses
            return push
        }
    }

    public func health() async throws -> ProviderHealth {
        do {
            let tip = try await tip()
            // electrs answers headers while its index is unavailable, and -32603 to everything else, ping
            // included: the ping tells a server that cannot answer for addresses yet.
            _ = try await link.call("server.ping")
            return ProviderHealth(isHealthy: true, bestHeight: tip.height)
        } catch let error as ProviderError {
            return ProviderHealth(isHealthy: false, reason: error.description)
        }
    }

    public func tip() async throws -> BlockRef {
        let result = try await link.call("blockchain.headers.subscribe")
        guard let height = result["height"].flatMap(Self.int), let hex = result["hex"]?.stringValue else {
            throw invalid("headers.subscribe answered \(Self.clip(result)), not {height, hex}")
        }
        let previous = cache.header(at: height - 1)
        let replaced = cache.header(at: height)
        let tip = try header(hex: hex, height: height, what: "the tip header")
        // Another branch: the headers read below the tip may be stale.
        if replaced.map({ $0.hash != tip.hash }) == true
            || previous.map({ $0.hash != tip.header.previousBlockHash.displayHex }) == true
        {
            cache.dropHeaders(from: max(0, height - 100))
            cache.store(tip)
        }
        return tip.ref
    }

    public func block(_ id: BlockID) async throws -> BlockHeader {
        let height: Int
        switch id {
        case .height(let h): height = h
        case .hash(let hash):
            guard let known = cache.height(of: hash) else {
                throw ProviderError.notFound(
                    provider: self.id,
                    what: "block \(hash) (an Electrum server finds headers by height only; this hash was not seen)"
                )
            }
            height = known
        }
        let parsed: ElectrumCache.Header
        do {
            parsed = try await header(at: height, fresh: true)
        } catch ProviderError.badRequest {
            // Servers answer a height past their tip with a handler error (electrs's code 1).
            throw ProviderError.notFound(provider: self.id, what: "block \(height)")
        }
        if case .hash(let hash) = id, parsed.hash != hash {
            throw ProviderError.notFound(provider: self.id, what: "block \(hash) (no longer on the server's chain)")
        }
        return blockHeader(parsed)
    }

    /// `get_balance` and `get_history`, each read once per status of the push connection's live subscription, and
    /// no request for an address that status says is unused (``ElectrumStatusBook``).
    public func address(_ address: String) async throws -> AddressSummary {
        let scripthash = try self.scripthash(address)
        if case .some(.none) = await statuses.status(scripthash, address: address) {
            return AddressSummary(
                address: address,
                balanceSat: 0,
                totalReceivedSat: nil,
                totalSentSat: nil,
                txCount: 0,
                unconfirmedBalanceSat: 0,
                unconfirmedTxCount: 0
            )
        }
        let balance: (confirmed: Int64, unconfirmed: Int64)
        do {
            balance = try await self.balance(scripthash, address: address)
        } catch ProviderError.unsupported {
            // A server without get_balance: the balance is the sum of the history's deltas.
            let txs = try await addressTransactions(address, limit: Int.max, after: nil)
            balance = txs.reduce((0, 0)) { sum, tx in
                tx.blockHeight == nil ? (sum.0, sum.1 + tx.deltaSat) : (sum.0 + tx.deltaSat, sum.1)
            }
        }
        let history = try await self.history(scripthash, address: address)
        if history.isEmpty, balance.confirmed != 0 || balance.unconfirmed != 0 {
            throw ProviderError.badRequest(
                provider: id,
                detail: "\(address): the server answered an empty history for a balance of "
                    + "\(balance.confirmed + balance.unconfirmed) sat: it withholds histories longer than its limit "
                    + "(Fulcrum's max_history, 125,000 by default); raise max_history or follow the address elsewhere"
            )
        }
        let waiting = history.filter { $0.height <= 0 }.count
        return AddressSummary(
            address: address,
            balanceSat: balance.confirmed,
            totalReceivedSat: nil,
            totalSentSat: nil,
            txCount: history.count - waiting,
            unconfirmedBalanceSat: balance.unconfirmed,
            unconfirmedTxCount: waiting
        )
    }

    public func addressTransactions(_ address: String, limit: Int, after txid: String?) async throws -> [AddressTx] {
        let script = try scriptPubKey(address)
        let history = try await self.history(ElectrumHash.scripthash(scriptPubKey: script), address: address)
        let mine = Dictionary(history.map { ($0.txHash, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [AddressTx] = []
        // Newest first: the mempool (listed last), then confirmed from the top.
        for entry in history.reversed() {
            if entry.txHash == txid || result.count >= limit { break }
            let tx = try await transaction(raw: entry.txHash)
            var delta: Int64 = 0
            for output in tx.outputs where output.scriptPubKey == script { delta += output.value }
            // Only a transaction of the address's own history can have paid it: those parents are fetched, no other.
            for input in tx.inputs {
                let parentID = input.previousOutput.txid.displayHex
                guard mine[parentID] != nil else { continue }
                let parent = try await transaction(raw: parentID)
                let vout = Int(input.previousOutput.vout)
                if parent.outputs.indices.contains(vout), parent.outputs[vout].scriptPubKey == script {
                    delta -= parent.outputs[vout].value
                }
            }
            let confirmed = entry.height > 0 ? try await header(at: entry.height, fresh: false) : nil
            let unconfirmedParents = tx.inputs.filter {
                (mine[$0.previousOutput.txid.displayHex]?.height ?? 1) <= 0
            }.count
            result.append(
                AddressTx(
                    txid: entry.txHash,
                    blockHeight: confirmed?.height,
                    blockHash: confirmed?.hash,
                    time: confirmed.map { Date(timeIntervalSince1970: TimeInterval($0.header.time)) },
                    deltaSat: delta,
                    facts: TxFacts(
                        feeSat: entry.fee,
                        vsize: tx.vsize,
                        sequences: tx.inputs.map(\.sequence),
                        parents: tx.inputs.map { $0.previousOutput.txid.displayHex },
                        // What it spends: a later transaction of the same history spending one of these names
                        // itself as its replacement.
                        outpoints: tx.inputs.map {
                            TxOutpoint(txid: $0.previousOutput.txid.displayHex, vout: Int($0.previousOutput.vout))
                        },
                        unconfirmedInputs: entry.height == 0 ? 0 : (entry.height < 0 ? max(1, unconfirmedParents) : 0)
                    )
                )
            )
        }
        return result
    }

    public func transaction(_ txid: String) async throws -> ChainTransaction {
        let tx = try await transaction(raw: txid.lowercased())
        var inputs: [TxEndpoint] = []
        var valueIn: Int64 = 0
        var spentScripts: [[UInt8]] = []
        if tx.isCoinbase { inputs.append(TxEndpoint(address: nil, valueSat: 0)) }
        for input in tx.inputs where !tx.isCoinbase {
            let parent = try await transaction(raw: input.previousOutput.txid.displayHex)
            let vout = Int(input.previousOutput.vout)
            guard parent.outputs.indices.contains(vout) else {
                throw invalid("transaction \(txid) spends output \(vout) of a parent with \(parent.outputs.count)")
            }
            let spent = parent.outputs[vout]
            spentScripts.append(spent.scriptPubKey)
            valueIn += spent.value
            inputs.append(TxEndpoint(address: addressText(spent.scriptPubKey), valueSat: spent.value))
        }
        let outputs = tx.outputs.map { TxEndpoint(address: addressText($0.scriptPubKey), valueSat: $0.value) }
        // The raw form has no height: the history of the first output's script places the transaction. A script
        // whose history the server will not give (ElectrumX's 10001, or Fulcrum's max_history: an empty history,
        // which cannot be, as the transaction touches it) passes to the next output's, then to the spent ones'.
        // A transaction that a script's history does not list at all is on neither the server's chain nor its
        // mempool (replaced, dropped, or reorged away with its inputs), though the raw form may still be cached.
        var height: Int?
        var listed = true
        var scripts: [[UInt8]] = []
        for script in tx.outputs.map(\.scriptPubKey) + spentScripts
        where addressText(script) != nil && !scripts.contains(script) {
            scripts.append(script)
        }
        for (index, script) in scripts.enumerated() {
            let scripthash = ElectrumHash.scripthash(scriptPubKey: script)
            let entries: [HistoryEntry]
            do {
                entries = try await history(scripthash, address: scripthash)
            } catch ProviderError.badRequest where index + 1 < scripts.count {
                continue
            }
            if entries.isEmpty, index + 1 < scripts.count { continue }
            let entry = entries.first { $0.txHash == txid.lowercased() }
            height = entry.flatMap { $0.height > 0 ? $0.height : nil }
            listed = entry != nil || entries.isEmpty
            break
        }
        guard listed else {
            throw ProviderError.notFound(
                provider: id,
                what: "transaction \(txid) (listed by no history of the scripts it touches: replaced or dropped)"
            )
        }
        let header = try await height.asyncMap { try await self.header(at: $0, fresh: false) }
        return ChainTransaction(
            txid: txid.lowercased(),
            blockHeight: height,
            blockHash: header?.hash,
            time: header.map { Date(timeIntervalSince1970: TimeInterval($0.header.time)) },
            feeSat: tx.isCoinbase ? nil : valueIn - tx.outputs.reduce(0) { $0 + $1.value },
            inputs: inputs,
            outputs: outputs
        )
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
