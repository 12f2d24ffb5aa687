import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// `scantxoutset`: the confirmed UTXO set searched for the scripts of descriptors (`addr()`, `raw()`, and key
/// descriptors such as `wpkh(xpub…/0/*)` with a `range`), Core 29's result shape.
struct NodeScan: Sendable {
    let chain: ChainModel

    func run(_ p: RPCParams) throws(RPCError) -> JSONValue {
        let action = try p.string(0) ?? ""
        switch action {
        case "abort": return .bool(false)
        case "status": return .null
        case "start": break
        default: throw .invalidParameter("Invalid action '\(action)'")
        }
        guard let objects = p.value(1) else {
            throw .invalidParameter("scanobjects argument is required for the start action")
        }
        guard case .array(let items) = objects else { throw .type(objects, expected: "array") }
        var scripts: [[UInt8]] = []
        for item in items {
            for script in try self.scripts(of: item) where !scripts.contains(script) { scripts.append(script) }
        }
        let json = CoreTxJSON(chain: chain)
        var unspents: [JSONValue] = []
        var total: Int64 = 0
        for script in scripts {
            for outpoint in chain.confirmedUnspent(paying: script) {
                guard let tx = chain.transaction(outpoint.txid), let location = chain.location(of: outpoint.txid),
                    let block = chain.block(height: location.height)
                else { continue }
                let value = tx.raw.outputs[outpoint.vout].value
                total += value
                unspents.append(
                    .object([
                        .init("txid", .string(outpoint.txid)),
                        .init("vout", .integer(outpoint.vout)),
                        .init("scriptPubKey", .string(Hex.encode(script))),
                        .init("desc", json.scriptPubKey(script)["desc"] ?? .null),
                        .init("amount", .number(BTCAmount.text(value))),
                        .init("coinbase", .bool(tx.isCoinbase)),
                        .init("height", .integer(location.height)),
                        .init("blockhash", .string(block.hash)),
                        .init("confirmations", .integer(chain.confirmations(atHeight: location.height))),
                    ])
                )
            }
        }
        return .object([
            .init("success", .bool(true)),
            .init("txouts", .integer(chain.utxoCount())),
            .init("height", .integer(chain.tip.height)),
            .init("bestblock", .string(chain.tip.hash)),
            .init("unspents", .array(unspents)),
            .init("total_amount", .number(BTCAmount.text(total))),
        ])
    }

    /// The scripts of one scan object: a descriptor string, or `{"desc": …, "range": n | [begin, end]}` (range
    /// default 1000, as Core's).
    func scripts(of item: JSONValue) throws(RPCError) -> [[UInt8]] {
        let text: String
        var range = 0...999
        switch item {
        case .string(let string): text = string
        case .object:
            guard case .string(let string)? = item["desc"] else {
                throw RPCError(code: -8, message: "Invalid scan object")
            }
            text = string
            switch item["range"] {
            case nil: break
            case .number(let end)?:
                guard let end = Int(end), end >= 0 else {
                    throw .invalidParameter("Range should be greater or equal than 0")
                }
                range = 0...end
            case .array(let bounds)?:
                guard bounds.count == 2, case .number(let a) = bounds[0], case .number(let b) = bounds[1],
                    let low = Int(a), let high = Int(b), low >= 0, low <= high
                else { throw .invalidParameter("Range specified as [begin,end] must not have begin after end") }
                range = low...high
            case let other?: throw .type(other, expected: "number or array")
            }
        default:
            throw RPCError(code: -8, message: "Scan object needs to be either a string or an object")
        }
        let descriptor: Descriptor
        do {
            descriptor = try Descriptor(text, network: chain.parameters.network.addressNetwork)
        } catch {
            throw RPCError(code: -5, message: "\(error)")
        }
        var scripts: [[UInt8]] = []
        for branch in 0..<descriptor.branchCount {
            for index in descriptor.isRanged ? range : 0...0 {
                do {
                    scripts.append(try descriptor.scriptPubKey(branch: branch, index: UInt32(index)))
                } catch {
                    throw RPCError(code: -5, message: "\(error)")
                }
            }
        }
        return scripts
    }
}
