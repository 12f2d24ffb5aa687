import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Starting balances: Core has no address index, but its UTXO set says what each address holds now.
extension BitcoindProvider {
    /// The confirmed balances of `addresses` at the node's tip: one `scantxoutset start [{"desc": "addr(…)"}, …]`
    /// for all of them (Core reads its whole UTXO set once per scan, whatever the number of descriptors), with the
    /// ``scanTimeout`` budget instead of `timeout`. Outputs are matched to addresses by their script bytes.
    /// Core runs one scan at a time: this provider's scans wait their turn (``BitcoindScanGate``), and "Scan already
    /// in progress" (a scan someone else started) is `unavailable`, to be tried again later.
    public func unspentBalances(_ addresses: [String]) async throws -> UTXOBalances {
        var scripts: [String: String] = [:]
        for address in addresses {
            guard let script = BitcoinAddress.scriptPubKey(fromAddress: address) else {
                throw ProviderError.badRequest(provider: id, detail: "\(address) is not an address")
            }
            scripts[Hex.encode(script)] = address
        }
        let what = "UTXO scan of \(addresses.count) address(es)"
        let objects: [JSONValue] = addresses.map { .object([.init("desc", .string("addr(\($0))"))]) }
        let node: ProviderHTTP.JSONNode
        let (rpc, budget) = (self.rpc, scanTimeout)
        let reply = try await scanGate.run {
            try await rpc.attempt("scantxoutset", [.string("start"), .array(objects)], what: what, budget: budget)
        }
        switch reply {
        case .success(let result): node = result
        case .failure(let failure) where failure.message.contains("in progress"):
            throw ProviderError.unavailable(provider: id, status: nil, detail: "a UTXO scan is already running")
        case .failure(let failure): throw rpc.error(failure, what: what)
        }
        guard try node["success"]?.bool() ?? true else { throw node.failure("scantxoutset did not succeed") }
        let block = BlockRef(
            height: try node.required("height").int(),
            hash: try decoder.hash(node.required("bestblock"))
        )
        var balances = Dictionary(uniqueKeysWithValues: addresses.map { ($0, Int64(0)) })
        var outputs: [String: [UTXOBalances.Output]] = [:]
        for unspent in try node.required("unspents").array() {
            let script = try unspent.required("scriptPubKey").string().lowercased()
            guard let address = scripts[script] else {
                throw unspent.failure("an unspent output whose script \(script) no asked address has")
            }
            let value = try BitcoindDecoder.satoshis(unspent.required("amount"))
            balances[address, default: 0] += value
            let output = UTXOBalances.Output(
                txid: try decoder.hash(unspent.required("txid")),
                vout: try unspent.required("vout").int(),
                valueSat: value,
                height: try unspent.required("height").int()
            )
            outputs[address, default: []].append(output)
        }
        return UTXOBalances(block: block, balances: balances, outputs: outputs)
    }
}
