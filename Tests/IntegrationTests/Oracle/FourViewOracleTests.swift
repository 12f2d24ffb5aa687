import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Two wallets with random keys drawn by BDK (one `wpkh`, one `tr`), paid on both branches, one spending to the other
/// with change, through a reorg of depth 1 and with a payment left in the mempool, seen four ways that must agree:
/// BDK synced through a real ElectrumX (itself indexing the simnet's Core face), BDK synced through the simnet's own
/// Electrum face, `watcher wallets show` of a daemon whose `electrum` provider is that ElectrumX, and the simnet's
/// truth recomputed from its blocks and mempool.
///
/// The mempool payment is one into a wallet, so "unconfirmed" means the same to all four (BDK's pending outputs and
/// Electrum's mempool delta differ only for a spend waiting in the mempool); a block after the reorg confirms what
/// the reorg sent back to the mempool.
@Suite("Four views of two random wallets")
struct FourViewOracleTests {
    /// Confirmed and unconfirmed balance and transaction count of one wallet.
    struct View: Equatable, CustomStringConvertible {
        var confirmed: Int64
        var unconfirmed: Int64
        var txs: Int64
        var description: String { "confirmed \(confirmed), unconfirmed \(unconfirmed), \(txs) txs" }
    }

    /// The simnet's truth from its blocks and mempool: the wallet's net effect of each transaction touching it.
    static func truth(_ chain: ChainModel, _ addresses: Set<String>) -> View {
        var view = View(confirmed: 0, unconfirmed: 0, txs: 0)
        let confirmed = chain.blocks.flatMap(\.txids)
        for (txids, isConfirmed) in [(confirmed, true), (chain.mempool, false)] {
            for txid in txids {
                guard let tx = chain.transaction(txid), !Set(tx.touchedAddresses).isDisjoint(with: addresses) else {
                    continue
                }
                let delta = tx.delta(for: addresses)
                if isConfirmed { view.confirmed += delta } else { view.unconfirmed += delta }
                view.txs += 1
            }
        }
        return view
    }

    static func bdk(_ json: JSONValue) -> View? {
        guard let confirmed = json["confirmed"]?.oracleInteger, let unconfirmed = json["unconfirmed"]?.oracleInteger,
            let txs = json["txs"]?.oracleInteger
        else { return nil }
        return View(confirmed: confirmed, unconfirmed: unconfirmed, txs: txs)
    }

    static func watcher(_ json: JSONValue) -> View? {
        guard let confirmed = json["balanceSat"]?.oracleInteger,
            let unconfirmed = json["unconfirmedSat"]?.oracleInteger,
            let txs = json["transactions"]?.arrayValue?.count
        else { return nil }
        return View(confirmed: confirmed, unconfirmed: unconfirmed, txs: Int64(txs))
    }

    /// A daemon following both wallets through ElectrumX (`btc-regtest`, tpub descriptors, the `poll` strategy).
    static func config(_ data: String, electrumx: Int, wallets: [(String, OracleHarness.Wallet)]) throws -> String {
        let watches = wallets.map { id, wallet in
            #"{"id": "\#(id)", "type": "wallet", "chain": "btc-regtest", "providers": ["ex"], "every": "1s", "#
                + #""strategy": "poll", "descriptor": "\#(wallet.multipath)"}"#
        }
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "ex", "type": "electrum", "chain": "btc-regtest",
                            "options": {"url": "tcp://127.0.0.1:\(electrumx)", "timeout": "10s"},
                            "rateLimit": {"requests": 60000, "per": "1m", "burst": 1000, "concurrency": 8}}],
             "watches": [{"id": "tip", "type": "blocks", "chain": "btc-regtest", "providers": ["ex"], "every": "1s"},
                         \(watches.joined(separator: ",\n"))],
             "sinks": [{"id": "file", "type": "file", "options": {"path": "\(data)/events.jsonl"}}]}
            """
        let path = "\(data)/watcher.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("BDK via ElectrumX = BDK via the simnet's Electrum face = watcher via ElectrumX = the simnet's truth")
    func fourViewsAgree() async throws {
        let python = try await OracleHarness.python()
        let seed = UInt64.random(in: 0...UInt64.max)
        var configuration = SimnetConfiguration(chain: ChainParameters(seed: seed, network: .regtest))
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let electrumx = try await OracleHarness.ElectrumX(python: python, simnet: simnet)
            let data = try TemporaryDirectory("oracle-watcher")
            var daemon: ServiceProcess?
            do {
                let a = try await OracleHarness.newWallet(python, "wpkh")
                let b = try await OracleHarness.newWallet(python, "tr")
                // The daemon follows both wallets from the start, through the payments, the spend and the reorg.
                let config = try Self.config(data.path, electrumx: electrumx.port, wallets: [("a", a), ("b", b)])
                daemon = try ServiceProcess(
                    [WatcherProcess.executable.path, "run", "--config", config],
                    environment: ["WATCHER_LOG_LEVEL": "info"],
                    outputPath: data.file("watcher.log")
                )
                var rng = SystemRandomNumberGenerator()
                // Both branches of both wallets paid, then a spend from one to the other with change.
                for wallet in [a, b] {
                    _ = try await simnet.pay(
                        to: wallet.receive[0],
                        amountSat: Int64.random(in: 300_000...3_000_000, using: &rng)
                    )
                    _ = try await simnet.pay(
                        to: wallet.change[0],
                        amountSat: Int64.random(in: 10_000...900_000, using: &rng)
                    )
                }
                _ = try await simnet.mine(count: 1)
                _ = try await simnet.pay(
                    to: b.receive[1],
                    amountSat: Int64.random(in: 50_000...250_000, using: &rng),
                    from: a.receive[0],
                    change: a.change[1]
                )
                _ = try await simnet.mine(count: 1)
                // The spend's block replaced: it is confirmed again, back in the mempool or gone, as the seed says.
                _ = try await simnet.reorg(depth: 1)
                _ = try await simnet.mine(count: 1)
                _ = try await simnet.pay(to: b.receive[2], amountSat: Int64.random(in: 20_000...80_000, using: &rng))

                let chain = await simnet.chain()
                let truths = [a, b].map { Self.truth(chain, Set($0.receive + $0.change)) }
                try await OracleHarness.waitForTip(python, port: electrumx.port, chain.tip.ref) {
                    electrumx.process.output
                }

                let faceport = try #require(simnet.electrumPort)
                var last: [String] = []
                let agreed = try? await eventuallyValue(timeout: .seconds(120), "four equal views") { () -> Bool? in
                    var rows: [String] = []
                    var equal = true
                    for (index, (id, wallet)) in [("a", a), ("b", b)].enumerated() {
                        let shown = try await WatcherProcess.run(["wallets", "show", id, "--config", config, "--json"])
                        let viaWatcher = (try? JSONValue.parse(shown.stdout)).flatMap(Self.watcher)
                        let truth = truths[index]
                        // BDK's full scans (a second or two each) only once watcher has caught up.
                        let viaElectrumX =
                            viaWatcher != truth
                            ? nil : Self.bdk(try await OracleHarness.bdkSync(python, port: electrumx.port, wallet))
                        let viaFace =
                            viaWatcher != truth
                            ? nil : Self.bdk(try await OracleHarness.bdkSync(python, port: faceport, wallet))
                        rows.append(
                            "wallet \(id): truth \(truth); BDK via ElectrumX \(viaElectrumX.map(\.description) ?? "-");"
                                + " BDK via the face \(viaFace.map(\.description) ?? "-");"
                                + " watcher \(viaWatcher.map(\.description) ?? shown.stderr)"
                        )
                        equal = equal && viaElectrumX == truth && viaFace == truth && viaWatcher == truth
                    }
                    last = rows
                    return equal ? true : nil
                }
                #expect(agreed == true, "seed \(seed):\n\(last.joined(separator: "\n"))")
                #expect(truths.allSatisfy { $0.confirmed > 0 && $0.txs >= 2 }, "\(truths)")
                #expect(truths[1].unconfirmed > 0, "the mempool payment: \(truths)")
            } catch {
                Issue.record("seed \(seed), ElectrumX's log:\n\(electrumx.process.output)")
                if let daemon {
                    Issue.record("watcher's log:\n\(daemon.output)")
                    daemon.signal(SIGTERM)
                    _ = try? await daemon.wait()
                }
                await electrumx.stop()
                throw error
            }
            if let daemon {
                #expect(daemon.exitStatus == nil, "the daemon ended early: \(daemon.output)")
                daemon.signal(SIGTERM)
                let status = try await daemon.wait(timeout: .seconds(90))
                // A stop used to crash here (SIGSEGV in mdb_txn_begin: a delivery worker reading the closed store).
                #expect(status == 0, "the daemon stopped with \(status): \(daemon.output)")
            }
            await electrumx.stop()
        }
    }
}
