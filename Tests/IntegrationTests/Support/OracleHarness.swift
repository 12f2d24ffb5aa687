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

/// What the oracle suites share: the venv's Python (`make oracle-deps`), a real ElectrumX indexing a simnet through
/// its Bitcoin Core face, and `scripts/oracle/electrum-query.py` to ask an Electrum server what it knows.
enum OracleHarness {
    /// The repository, for `scripts/oracle/`.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// What to do when the oracles are missing: the test fails with this, it never skips.
    static let install =
        "run `make oracle-deps` (it creates .build/oracle-venv with Debian's python3-venv, `apt-get install python3-venv`,"
        + " and installs scripts/oracle/requirements.txt from PyPI), and run the tests through make, which exports"
        + " WATCHER_ORACLE_PYTHON"

    /// The venv's Python, checked to import ElectrumX and BDK.
    static func python() async throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let python =
            environment["WATCHER_ORACLE_PYTHON"]
            ?? repository.appendingPathComponent(".build/oracle-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("The oracles' Python \(python) is missing: \(install).")
            throw OracleMissing()
        }
        let check = try await ProcessRunner.run([python, "-c", "import electrumx, bdkpython"])
        guard check.status == 0 else {
            Issue.record("\(python) cannot import electrumx and bdkpython (\(check.output)): \(install).")
            throw OracleMissing()
        }
        return python
    }

    struct OracleMissing: Error {}

    /// A running ElectrumX over a simnet's Core face, its database in a directory of its own.
    final class ElectrumX: Sendable {
        let process: ServiceProcess
        let port: Int
        let directory: TemporaryDirectory

        /// Starts ElectrumX (regtest, LevelDB) against `simnet`'s JSON-RPC and waits until it serves Electrum.
        init(python: String, simnet: Simnet) async throws {
            directory = try TemporaryDirectory("electrumx")
            try FileManager.default.createDirectory(atPath: directory.file("db"), withIntermediateDirectories: true)
            port = try freePort()
            let server = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent(
                "electrumx_server"
            )
            let configuration = simnet.configuration
            process = try ServiceProcess(
                [python, server.path],
                environment: [
                    "ALLOW_ROOT": "1",
                    "COIN": "Bitcoin",
                    "NET": "regtest",
                    "DAEMON_URL":
                        "http://\(configuration.rpcUser):\(configuration.rpcPassword)@127.0.0.1:\(simnet.port)/",
                    "DB_DIRECTORY": directory.file("db"),
                    "DB_ENGINE": "leveldb",
                    "SERVICES": "tcp://127.0.0.1:\(port)",
                    "PEER_DISCOVERY": "off",
                    "PEER_ANNOUNCE": "",
                    // Poll the node every 100 ms (5 s by default), so a test waits for blocks, not for the poll.
                    "DAEMON_POLL_INTERVAL_BLOCKS": "100",
                    "DAEMON_POLL_INTERVAL_MEMPOOL": "100",
                    "CACHE_MB": "64",
                    // No per-session cost throttling (by default a session past 1,000 cost units waits 2.5 s a
                    // request): a watcher polling a wallet every second is well past it, and the tests compare
                    // answers, not ElectrumX's DoS limits.
                    "COST_SOFT_LIMIT": "100000000",
                    "COST_HARD_LIMIT": "1000000000",
                    "REQUEST_SLEEP": "0",
                    "INITIAL_CONCURRENT": "1000",
                ],
                outputPath: directory.file("electrumx.log")
            )
            try await process.waitForOutput("TCP server listening on", timeout: .seconds(90))
        }

        /// Stops it (SIGTERM, then waits for its exit).
        func stop() async {
            process.signal(SIGTERM)
            _ = try? await process.wait(timeout: .seconds(30))
        }
    }

    /// `electrum-query.py 127.0.0.1 <port> <arguments…>`: its one line of JSON.
    static func query(_ python: String, port: Int, _ arguments: [String]) async throws -> JSONValue {
        let script = repository.appendingPathComponent("scripts/oracle/electrum-query.py").path
        let outcome = try await ProcessRunner.run([python, script, "127.0.0.1", String(port)] + arguments)
        try #require(outcome.status == 0, "electrum-query.py \(arguments): \(outcome.output)")
        return try JSONValue.parse(Array(outcome.output.utf8))
    }

    /// A BDK wallet with a random key (`scripts/oracle/bdk-wallet.py new`): its public descriptors (a tpub) and its
    /// first addresses on each branch.
    struct Wallet: Sendable {
        let external: String
        let `internal`: String
        let receive: [String]
        let change: [String]

        /// The two descriptors as one, for watcher: `…/<0;1>/*`, without BDK's checksum.
        var multipath: String {
            let body = external.split(separator: "#")[0]
            return body.replacingOccurrences(of: "/0/*)", with: "/<0;1>/*)")
        }
    }

    /// A new wallet of `kind` (`wpkh` or `tr`) drawn by BDK.
    static func newWallet(_ python: String, _ kind: String) async throws -> Wallet {
        let script = repository.appendingPathComponent("scripts/oracle/bdk-wallet.py").path
        let outcome = try await ProcessRunner.run([python, script, "new", kind, "3"])
        try #require(outcome.status == 0, "bdk-wallet.py new \(kind): \(outcome.output)")
        let json = try JSONValue.parse(Array(outcome.output.utf8))
        func strings(_ key: String) -> [String] { json[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        return Wallet(
            external: json["external"]?.stringValue ?? "",
            internal: json["internal"]?.stringValue ?? "",
            receive: strings("receive"),
            change: strings("change")
        )
    }

    /// BDK's full scan of `wallet` through the Electrum server on `port`: `confirmed`, `unconfirmed` (pending),
    /// `immature`, `txs` and `tip`.
    static func bdkSync(_ python: String, port: Int, _ wallet: Wallet) async throws -> JSONValue {
        let script = repository.appendingPathComponent("scripts/oracle/bdk-wallet.py").path
        let outcome = try await ProcessRunner.run([
            python, script, "sync", "tcp://127.0.0.1:\(port)", wallet.external, wallet.internal,
        ])
        try #require(outcome.status == 0, "bdk-wallet.py sync: \(outcome.output)")
        return try JSONValue.parse(Array(outcome.output.utf8))
    }

    /// Waits until the Electrum server on `port` has `tip` as its tip (height and hash).
    static func waitForTip(_ python: String, port: Int, _ tip: BlockRef, log: @Sendable () -> String) async throws {
        try await eventually(timeout: .seconds(90), "the Electrum server at \(tip.height) \(tip.hash)") {
            let answer = try? await query(python, port: port, ["tip"])
            return answer?["height"]?.oracleInteger == Int64(tip.height) && answer?["hash"] == .string(tip.hash)
        }
    }
}

extension JSONValue {
    /// The number as an integer, when this is one (the oracles' satoshi amounts, heights and counts).
    var oracleInteger: Int64? {
        if case .number(let text) = self { return Int64(text) }
        return nil
    }
}
