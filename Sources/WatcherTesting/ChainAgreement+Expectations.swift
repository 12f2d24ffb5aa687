import Foundation
import Testing
import WatcherCore
import WatcherSimnet

/// Field-by-field comparisons with the truth. A field a provider leaves `nil` (it cannot supply it) is not
/// compared; a field it supplies must be exact.
extension ChainAgreement {
    func expectHeader(_ header: BlockHeader, _ expected: BlockHeader, _ label: String) {
        check(header.hash == expected.hash, "\(label): hash \(header.hash) != \(expected.hash)")
        check(header.height == expected.height, "\(label): height \(header.height) != \(expected.height)")
        check(header.time == expected.time, "\(label): time \(header.time) != \(expected.time)")
        check(header.merkleRoot == expected.merkleRoot, "\(label): merkleRoot")
        check(header.nonce == expected.nonce, "\(label): nonce \(header.nonce) != \(expected.nonce)")
        // A block always holds its coinbase: a provider that cannot count (an Electrum server) says `nil`, never 0.
        check(header.txCount != 0, "\(label): txCount 0 (a block holds its coinbase; unknown is nil)")
        if header.txCount != nil || has.contains(.blockTransactions) {
            check(
                header.txCount == expected.txCount,
                "\(label): txCount \(header.txCount.map(String.init) ?? "nil") != \(expected.txCount.map(String.init) ?? "nil")"
            )
        }
        if let previous = header.previousHash {
            check(previous == expected.previousHash, "\(label): previousHash")
        }
    }

    func expectTransaction(_ transaction: ChainTransaction, _ expected: ChainTransaction, _ label: String) {
        check(transaction.txid == expected.txid, "\(label): txid")
        check(
            transaction.blockHeight == expected.blockHeight,
            "\(label): blockHeight \(String(describing: transaction.blockHeight)) != \(String(describing: expected.blockHeight))"
        )
        if let hash = transaction.blockHash { check(hash == expected.blockHash, "\(label): blockHash") }
        if let time = transaction.time {
            check(time == expected.time, "\(label): time \(time) != \(String(describing: expected.time))")
        }
        if let fee = transaction.feeSat {
            check(fee == expected.feeSat, "\(label): feeSat \(fee) != \(expected.feeSat ?? -1)")
        }
        check(transaction.inputs == expected.inputs, "\(label): inputs \(transaction.inputs) != \(expected.inputs)")
        check(
            transaction.outputs == expected.outputs,
            "\(label): outputs \(transaction.outputs) != \(expected.outputs)"
        )
    }

    func expectSummary(_ summary: AddressSummary, _ truth: AddressTruth, _ label: String) {
        check(summary.address == truth.address, "\(label): address \(summary.address)")
        check(summary.balanceSat != nil, "\(label): the confirmed balance must be known")
        func field(_ name: String, _ value: Int64?, _ expected: Int64) {
            if let value { check(value == expected, "\(label): \(name) \(value) != truth \(expected)") }
        }
        field("balanceSat", summary.balanceSat, truth.confirmedBalanceSat)
        field("totalReceivedSat", summary.totalReceivedSat, truth.totalReceivedSat)
        field("totalSentSat", summary.totalSentSat, truth.totalSentSat)
        field("txCount", summary.txCount.map(Int64.init), Int64(truth.confirmedTxCount))
        field("unconfirmedBalanceSat", summary.unconfirmedBalanceSat, truth.unconfirmedBalanceSat)
        field("unconfirmedTxCount", summary.unconfirmedTxCount.map(Int64.init), Int64(truth.unconfirmedTxCount))
    }

    /// `expected` with its unconfirmed entries (the leading ones) in `history`'s order, when the contract runs with
    /// ``mempoolInAnyOrder`` and both hold the same unconfirmed txids; `expected` unchanged otherwise.
    func adoptingMempoolOrder(_ expected: [AddressTx], from history: [AddressTx]) -> [AddressTx] {
        guard mempoolInAnyOrder else { return expected }
        let waiting = expected.prefix { $0.blockHeight == nil }
        let theirs = history.prefix { $0.blockHeight == nil }.map(\.txid)
        guard Set(waiting.map(\.txid)) == Set(theirs), waiting.count == theirs.count else { return expected }
        let byTxid = Dictionary(uniqueKeysWithValues: waiting.map { ($0.txid, $0) })
        return theirs.compactMap { byTxid[$0] } + expected.dropFirst(waiting.count)
    }

    func expectHistory(_ history: [AddressTx], _ expected: [AddressTx], _ label: String) {
        let expected = adoptingMempoolOrder(expected, from: history)
        check(
            history.map(\.txid) == expected.map(\.txid),
            "\(label): txids \(history.count) vs \(expected.count), newest first"
        )
        for (entry, truth) in zip(history, expected) where entry.txid == truth.txid {
            check(
                entry.deltaSat == truth.deltaSat,
                "\(label) \(entry.txid.prefix(8)): deltaSat \(entry.deltaSat) != \(truth.deltaSat)"
            )
            check(entry.blockHeight == truth.blockHeight, "\(label) \(entry.txid.prefix(8)): blockHeight")
            if let hash = entry.blockHash {
                check(hash == truth.blockHash, "\(label) \(entry.txid.prefix(8)): blockHash")
            }
            if let time = entry.time { check(time == truth.time, "\(label) \(entry.txid.prefix(8)): time") }
        }
    }
}
