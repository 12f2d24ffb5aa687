/// Read access for the HTTP renderers and the control API.
extension ChainModel {
    /// Everything the renderers need to know about one address.
    struct AddressView: Sendable {
        var truth: AddressTruth
        /// Confirmed txids, oldest first.
        var confirmed: [String]
        /// Mempool txids, oldest first.
        var unconfirmed: [String]

        /// All txids newest first: mempool, then confirmed.
        var newestFirst: [String] { unconfirmed.reversed() + confirmed.reversed() }
    }

    /// The block at `height` on the main chain.
    public func block(height: Int) -> SimBlock? {
        let (index, overflow) = height.subtractingReportingOverflow(parameters.startHeight)
        return !overflow && blocks.indices.contains(index) ? blocks[index] : nil
    }

    /// The main-chain block with `hash`.
    public func block(hash: String) -> SimBlock? {
        heightByHash[hash.lowercased()].flatMap { block(height: $0) }
    }

    /// A known transaction (confirmed or in the mempool).
    public func transaction(_ txid: String) -> SimTransaction? {
        transactions[txid.lowercased()]
    }

    /// Where `txid` is confirmed, `nil` while unconfirmed or unknown.
    public func location(of txid: String) -> TxLocation? {
        confirmedAt[txid.lowercased()]
    }

    /// Confirmations of a block at `height`: 1 at the tip.
    public func confirmations(atHeight height: Int) -> Int {
        tip.height - height + 1
    }

    /// The transaction input spending `outpoint`, if any.
    public func spender(of outpoint: SimOutpoint) -> SpendRef? {
        spentBy[outpoint]
    }

    /// The script type of a known address.
    public func address(_ text: String) -> SimAddress? {
        book[text]
    }

    /// The truths of every funded address and every address paid through the control API.
    public func truths() -> [AddressTruth] {
        trackedAddresses.map { view(of: $0).truth }
    }

    /// The view of one address; unknown addresses have an empty history.
    func view(of address: String) -> AddressView {
        let entry = ledger.entry(address)
        var unconfirmed: [String] = []
        var unconfirmedReceived: Int64 = 0
        var unconfirmedSent: Int64 = 0
        for txid in mempool {
            guard let tx = transactions[txid] else { continue }
            let received = tx.outputs.reduce(Int64(0)) { $0 + ($1.address == address ? $1.value : 0) }
            let sent = tx.inputs.reduce(Int64(0)) { $0 + ($1.address == address ? $1.value : 0) }
            let touches =
                tx.outputs.contains { $0.address == address } || tx.inputs.contains { $0.address == address }
            if touches {
                unconfirmed.append(txid)
                unconfirmedReceived += received
                unconfirmedSent += sent
            }
        }
        let truth = AddressTruth(
            address: address,
            kind: book[address]?.kind ?? (try? SimAddressParser.decode(address, network: parameters.network).kind)
                ?? .p2wpkh,
            funded: funded.contains(address),
            confirmedBalanceSat: entry.received - entry.sent,
            unconfirmedBalanceSat: unconfirmedReceived - unconfirmedSent,
            totalReceivedSat: entry.received,
            totalSentSat: entry.sent,
            unconfirmedReceivedSat: unconfirmedReceived,
            unconfirmedSentSat: unconfirmedSent,
            confirmedTxCount: entry.txids.count,
            unconfirmedTxCount: unconfirmed.count,
            unspentOutputCount: unspentOutputs(of: address, among: entry.txids + unconfirmed)
        )
        return AddressView(truth: truth, confirmed: entry.txids, unconfirmed: unconfirmed)
    }

    private func unspentOutputs(of address: String, among txids: [String]) -> Int {
        var count = 0
        for txid in txids {
            guard let tx = transactions[txid] else { continue }
            for (vout, output) in tx.outputs.enumerated() where output.address == address {
                if spentBy[SimOutpoint(txid: txid, vout: vout)] == nil { count += 1 }
            }
        }
        return count
    }
}
