import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Who spends a transaction's outputs, in one JSON-RPC batch: `gettxspendingprevout` (Core 24+) names a mempool
/// spender, and `gettxout <txid> <n> true` finds an output that exists unspent (mempool spends counted). An output
/// spent in a block, or one whose transaction the node does not know, gets neither and is left out: without an
/// address index Core cannot tell them apart. A node before 24 answers `gettxspendingprevout` with "method not
/// found": only `gettxout`'s answers count then.
extension BitcoindProvider {
    public func spends(of txid: String, outputs: [Int]) async throws -> [Int: OutputSpend] {
        let wanted = Array(Set(outputs.filter { $0 >= 0 })).sorted()
        guard !wanted.isEmpty else { return [:] }
        let what = "the spenders of transaction \(txid)"
        let outpoints: [JSONValue] = wanted.map {
            .object([.init("txid", .string(txid)), .init("vout", .integer($0))])
        }
        let calls: [(String, [JSONValue])] =
            [("gettxspendingprevout", [.array(outpoints)])]
            + wanted.map { ("gettxout", [.string(txid), .integer($0), .bool(true)]) }
        let replies: [Result<ProviderHTTP.JSONNode, RPCFailure>]
        do {
            replies = try await rpc.batch(calls, what: what)
        } catch ProviderError.unavailable(_, 403?, _) {
            // A `-rpcwhitelist` without the two methods: the node cannot tell, which is no failure of the node.
            throw ProviderError.unsupported(provider: id, operation: "spends (forbidden by -rpcwhitelist)")
        }
        var result: [Int: OutputSpend] = [:]
        for (vout, reply) in zip(wanted, replies.dropFirst()) {
            switch reply {
            case .success(let node):
                guard case .object = node.value else { continue }
                result[vout] = .unspent
            case .failure(let failure):
                throw rpc.error(failure, what: what)
            }
        }
        switch replies.first {
        case .success(let node)?:
            for entry in try node.array() {
                guard let spender = entry["spendingtxid"] else { continue }
                let vout = try entry.required("vout").int()
                guard try decoder.hash(try entry.required("txid")) == txid.lowercased(), wanted.contains(vout) else {
                    throw entry.failure("gettxspendingprevout answered for another output at \(entry.place)")
                }
                result[vout] = .spent(by: try decoder.hash(spender))
            }
        case .failure(let failure)?:
            // Core before 24: no such method. Anything else is the node's error.
            guard failure.code == -32601 else { throw rpc.error(failure, what: what) }
        case nil:
            break
        }
        return result
    }
}
