import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import WatcherCore
import WatcherSimnet

/// `watcher simnet`: serves a deterministic simulated Bitcoin network on loopback until SIGINT/SIGTERM.
struct SimnetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simnet",
        abstract: "Serve a deterministic simulated Bitcoin network (Blockbook, rawaddr, Bitcoin Core, price APIs).",
        discussion: """
            Every endpoint is served at the root of one port: Blockbook under /api/, blockchain.info-style \
            /rawaddr, /multiaddr and /latestblock, CoinDesk under /v1/bpi/, Coinbase under /v2/prices/, Bitcoin \
            Core JSON-RPC at POST / (basic auth) and REST under /rest/, and a \
            JSON control API under /control/ (mine, tx, reorg, price, ratelimit, faults, stats, addresses). \
            The same --seed always gives the same chain. See docs/simnet.md.
            """
    )

    @Option(help: "The interface to bind.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 18443

    @Option(help: "Seed of every random choice; the same seed gives the same chain.")
    var seed: UInt64 = 42

    @Option(help: "Mine a block this often, e.g. 10s or 1m; 0 mines only on demand (POST /control/mine).")
    var blockInterval = "10s"

    @Option(help: "Transactions per block, coinbase included; above 1000 exercises block paging.")
    var txsPerBlock = 50

    @Option(help: "Height of the first block (mainnet only: a regtest chain starts at its genesis block, height 0).")
    var startHeight = 800_000

    @Option(
        help: """
            The network played: mainnet (bc1 addresses, a chain from --start-height) or regtest (the real regtest \
            genesis block at height 0, bcrt1 addresses, coinbases spendable after 100 blocks).
            """
    )
    var network = "mainnet"

    @Option(
        name: .customLong("core-version"),
        help: "The Bitcoin Core release the node face answers as, \(CoreVersion.oldest) to \(CoreVersion.newest)."
    )
    var coreVersion = CoreVersion.newest.description

    @Option(
        name: .customLong("rate-limit"),
        help: "A family's rate limit as family=requests/period (burst = requests), e.g. blockbook=20/1m. Repeatable."
    )
    var rateLimits: [String] = []

    @Option(
        name: .customLong("rpc-auth"),
        help: "The Bitcoin Core face's JSON-RPC credentials as user:password."
    )
    var rpcAuth = "watcher:watcher"

    @Option(
        name: .customLong("cookie-file"),
        help: "Write a Core-style cookie (__cookie__:<hex>) here while serving; it authenticates JSON-RPC too."
    )
    var cookieFile: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Behave as a node with -txindex (getrawtransaction finds confirmed txs without a block hash)."
    )
    var txindex = true

    @Option(
        name: .customLong("zmq-port"),
        help:
            "Publish ZMQ hashblock and sequence as Bitcoin Core does on tcp://<host>:N (0: any free port); off if unset."
    )
    var zmqPort: Int?

    @Option(
        name: .customLong("electrum-port"),
        help: "Serve the Electrum protocol (JSON-RPC lines over TCP) on <host>:N (0: any free port); off if unset."
    )
    var electrumPort: Int?

    @Option(
        name: .customLong("electrum-personality"),
        help: "The Electrum server imitated: electrs (protocol 1.4), fulcrum (1.4-1.6, subscription cap) or electrumx."
    )
    var electrumPersonality = "electrs"

    @Flag(
        name: .customLong("electrum-tls"),
        help: "Serve the Electrum port over TLS with a self-signed certificate made at start; its pin is printed."
    )
    var electrumTLS = false

    func validate() throws {
        _ = try parsedInterval()
        _ = try parsedRateLimits()
        _ = try parsedAuth()
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be within 0...65535.") }
        if let zmqPort, !(0...65_535).contains(zmqPort) {
            throw ValidationError("--zmq-port must be within 0...65535.")
        }
        if let electrumPort, !(0...65_535).contains(electrumPort) {
            throw ValidationError("--electrum-port must be within 0...65535.")
        }
        _ = try parsedPersonality()
        _ = try parsedNetwork()
        _ = try parsedCoreVersion()
        guard (1...100_000).contains(txsPerBlock) else {
            throw ValidationError("--txs-per-block must be within 1...100000.")
        }
    }

    func run() async throws {
        let interval = try parsedInterval()
        var configuration = SimnetConfiguration(
            host: host,
            port: port,
            blockInterval: interval == .zero ? nil : interval,
            chain: ChainParameters(
                seed: seed,
                startHeight: startHeight,
                txsPerBlock: txsPerBlock,
                network: try parsedNetwork()
            ),
            rateLimits: try parsedRateLimits()
        )
        configuration.coreVersion = try parsedCoreVersion()
        (configuration.rpcUser, configuration.rpcPassword) = try parsedAuth()
        configuration.cookieFile = cookieFile
        configuration.txindex = txindex
        configuration.zmq = zmqPort.map { "tcp://\(host):\($0 == 0 ? "*" : String($0))" }
        configuration.electrumPort = electrumPort
        configuration.electrumTLS = electrumTLS
        configuration.electrum.personality = try parsedPersonality()
        let simnet = Simnet(configuration: configuration)
        var logger = Logger(label: "watcher.simnet")
        logger.logLevel = .warning
        let group = ServiceGroup(
            configuration: .init(
                services: [.named(simnet)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                try await simnet.waitUntilRunning()
                await Self.printBanner(simnet)
            }
            try await tasks.waitForAll()
        }
    }

    private func parsedInterval() throws -> Duration {
        guard let interval = Duration(configText: blockInterval) else {
            throw ValidationError("--block-interval must look like 10s, 1m or 0.")
        }
        return interval
    }

    private func parsedNetwork() throws -> SimnetNetwork {
        guard let network = SimnetNetwork(name: network) else {
            throw ValidationError(
                "--network must be mainnet or regtest (the simnet plays no other network): '\(network)'."
            )
        }
        return network
    }

    private func parsedCoreVersion() throws -> CoreVersion {
        guard let version = CoreVersion(text: coreVersion) else {
            throw ValidationError(
                "--core-version must be a Bitcoin Core release from \(CoreVersion.oldest) to \(CoreVersion.newest),"
                    + " like 31.0: '\(coreVersion)'."
            )
        }
        return version
    }

    private func parsedPersonality() throws -> ElectrumSettings.Personality {
        guard let personality = ElectrumSettings.Personality(rawValue: electrumPersonality) else {
            let known = ElectrumSettings.Personality.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--electrum-personality must be one of \(known).")
        }
        return personality
    }

    private func parsedAuth() throws -> (String, String) {
        let parts = rpcAuth.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ValidationError("--rpc-auth must look like user:password.")
        }
        return (String(parts[0]), String(parts[1]))
    }

    private func parsedRateLimits() throws -> [ProviderFamily: RateLimit] {
        var limits: [ProviderFamily: RateLimit] = [:]
        for text in rateLimits {
            let parts = text.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let family = ProviderFamily(rawValue: String(parts[0])),
                let limit = RateLimit(shortText: String(parts[1]))
            else {
                let families = ProviderFamily.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--rate-limit '\(text)' must look like blockbook=20/1m (families: \(families)).")
            }
            limits[family] = limit
        }
        return limits
    }

    /// Prints the base URL and one funded address of each kind, unbuffered so scripts see it at once.
    private static func printBanner(_ simnet: Simnet) async {
        let base = simnet.baseURL
        let tip = await simnet.tip()
        var lines = [
            "watcher simnet listening on \(base)",
            "network \(simnet.configuration.chain.network), seed \(simnet.configuration.chain.seed), tip \(tip.height) \(tip.hash)",
            "funded addresses:",
        ]
        var shown: Set<SimAddress.Kind> = []
        for truth in await simnet.addresses() where shown.insert(truth.kind).inserted {
            lines.append("  \(truth.address)  \(truth.kind.rawValue)  balance \(truth.confirmedBalanceSat) sat")
        }
        let node = simnet.configuration
        let cookie = node.cookieFile.map { ", cookie \($0)" } ?? ""
        lines.append("bitcoind JSON-RPC: POST \(base)/ as \(node.rpcUser)\(cookie); REST under \(base)/rest/")
        if let zmq = simnet.zmqEndpoint { lines.append("ZMQ: hashblock and sequence on \(zmq)") }
        if let electrum = simnet.electrumPort {
            let personality = node.electrum.personality.rawValue
            if let pin = simnet.electrumPin {
                lines.append("Electrum (\(personality)): ssl://\(node.host):\(electrum), certificate pin \(pin)")
            } else {
                lines.append("Electrum (\(personality)): tcp://\(node.host):\(electrum)")
            }
        }
        lines.append("try: curl \(base)/api/v2/block-index/  or  curl \(base)/control/addresses  (Ctrl-C stops)")
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
