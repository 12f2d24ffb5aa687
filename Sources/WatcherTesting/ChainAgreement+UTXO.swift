import WatcherCore
import WatcherSimnet

extension ChainAgreement {
    /// `unspentBalances` (``ChainCapabilities/utxoScan``): read at the tip, each asked address's confirmed balance,
    /// 0 for an address the chain never paid, one entry per address asked.
    func unspentBalances(_ truth: ChainTruth) async throws {
        guard has.contains(.utxoScan) else { return }
        let asked = truth.busiestAddresses.prefix(6).map(\.address) + [Self.outsider]
        let scan = try await provider.unspentBalances(asked)
        check(scan.block == truth.tip, "unspentBalances(): read at the tip \(truth.tip), got \(scan.block)")
        check(Set(scan.balances.keys) == Set(asked), "unspentBalances(): one balance per address asked")
        for address in asked {
            let expected = truth.truth(of: address)?.confirmedBalanceSat ?? 0
            check(
                scan.balances[address] == expected,
                "unspentBalances() \(address): \(expected) sat confirmed, got \(String(describing: scan.balances[address]))"
            )
        }
    }
}
