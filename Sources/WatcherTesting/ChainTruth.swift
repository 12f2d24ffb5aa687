import Foundation
import WatcherCore
import WatcherSimnet

/// What a correct ``ChainProvider`` answers, computed from a snapshot of the simnet's chain: the oracle the
/// contract compares adapters with.
///
/// Conventions an adapter must follow: a coinbase transaction has one input with no address and value 0; an
/// `OP_RETURN` output has no address; unconfirmed transactions have no block height; histories are newest
/// first (mempool newest first, then by block height and position, descending).
public struct ChainTruth: Sendable {
    /// The chain snapshot.
    public let chain: ChainModel

    /// Takes a snapshot of `simnet`'s chain.
    public init(_ simnet: Simnet) async {
        chain = await simnet.chain()
    }

    /// The tip.
    public var tip: BlockRef { chain.tip.ref }

    /// The header of the main-chain block at `height`.
    public func header(height: Int) -> BlockHeader? {
        chain.block(height: height).map(Self.header)
    }

    /// A block's header.
    public static func header(_ block: SimBlock) -> BlockHeader {
        BlockHeader(
            hash: block.hash,
            height: block.height,
            time: Date(timeIntervalSince1970: TimeInterval(block.time)),
            merkleRoot: block.merkleRoot,
            nonce: block.nonce,
            txCount: block.txCount,
            previousHash: block.previousBlockHash
        )
    }

    /// A known transaction, confirmed or in the mempool.
    public func transaction(_ txid: String) -> ChainTransaction? {
        guard let tx = chain.transaction(txid) else { return nil }
        let location = chain.location(of: txid)
        let block = location.flatMap { chain.block(height: $0.height) }
        let inputs =
            tx.isCoinbase
            ? [TxEndpoint(address: nil, valueSat: 0)]
            : tx.inputs.map { TxEndpoint(address: $0.address, valueSat: $0.value) }
        return ChainTransaction(
            txid: tx.txid,
            blockHeight: location?.height,
            blockHash: block?.hash,
            time: Date(timeIntervalSince1970: TimeInterval(block?.time ?? tx.firstSeen)),
            feeSat: tx.fee,
            inputs: inputs,
            outputs: tx.outputs.map { TxEndpoint(address: $0.address, valueSat: $0.value) }
        )
    }

    /// Every transaction touching `address`, newest first, with its net effect.
    public func history(of address: String) -> [AddressTx] {
        var result: [AddressTx] = []
        let set: Set<String> = [address]
        func touches(_ tx: SimTransaction) -> Bool {
            tx.inputs.contains { $0.address == address } || tx.outputs.contains { $0.address == address }
        }
        for txid in chain.mempool.reversed() {
            guard let tx = chain.transaction(txid), touches(tx) else { continue }
            let time = Date(timeIntervalSince1970: TimeInterval(tx.firstSeen))
            result.append(AddressTx(txid: txid, blockHeight: nil, time: time, deltaSat: tx.delta(for: set)))
        }
        for block in chain.blocks.reversed() {
            for txid in block.txids.reversed() {
                guard let tx = chain.transaction(txid), touches(tx) else { continue }
                let time = Date(timeIntervalSince1970: TimeInterval(block.time))
                result.append(
                    AddressTx(
                        txid: txid,
                        blockHeight: block.height,
                        blockHash: block.hash,
                        time: time,
                        deltaSat: tx.delta(for: set)
                    )
                )
            }
        }
        return result
    }

    /// The truth of `address` (every address has one: unknown addresses have no history).
    public func truth(of address: String) -> AddressTruth? {
        chain.truths().first { $0.address == address }
    }

    /// The funded and paid addresses, most transactions first.
    public var busiestAddresses: [AddressTruth] {
        chain.truths().sorted { ($0.confirmedTxCount, $0.address) > ($1.confirmedTxCount, $1.address) }
    }
}
