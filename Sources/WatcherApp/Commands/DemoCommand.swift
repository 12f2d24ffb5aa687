import ArgumentParser
import Foundation
import Logging
import WatcherConfiguration
import WatcherCore
import WatcherSimnet

/// `watcher demo`: the whole product on a simulated network, in one process.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the watcher against an in-process simulated network, with events on stdout.",
        discussion: """
            Starts the simnet on a free port, follows two of its addresses through Blockbook (rawaddr as \
            failover) and CoinDesk prices, pays those addresses and mines a block every few seconds. Events go to \
            stdout and to <data>/events.jsonl. The web UI is served on --http (a free loopback port by default) and its \
            URL printed. The data directory is left behind: try `watcher blocks --config \
            <data>/watcher.json` afterwards.
            """
    )

    @Option(help: "Stop after this long, e.g. 30s (default: run until Ctrl-C).")
    var duration: String?

    @Option(help: "The data directory (created; its watcher.json is rewritten).")
    var data = "./demo-data"

    @Option(help: "The simnet's seed.")
    var seed: UInt64 = 42

    @Option(help: "Serve the web UI, /healthz, /metrics and /api/* on HOST:PORT (port 0: a free one).")
    var http = "127.0.0.1:0"

    @Option(help: ArgumentHelp("The bearer token writes need when --http is not loopback.", valueName: "TOKEN"))
    var httpToken: String?

    func validate() throws {
        if let duration, Duration(configText: duration) == nil {
            throw ValidationError("--duration: expected a duration such as 30s, got \"\(duration)\"")
        }
        if RunCommand.hostPort(http) == nil {
            throw ValidationError("--http: expected HOST:PORT such as 127.0.0.1:9110, got \"\(http)\"")
        }
        try RunCommand.validate(httpToken: httpToken, http: http)
    }

    func run() async throws {
        var logger = Logger(label: "watcher")
        logger.logLevel = .notice
        // A quiet chain (few transactions, many funded addresses) so the followed addresses' own payments stand
        // out, with block times in the recent past (the simnet spaces blocks 10 minutes apart).
        var configuration = SimnetConfiguration(seed: seed, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(
            seed: seed,
            txsPerBlock: 8,
            mempoolTxsPerBlock: 1,
            fundedAddressCount: 200,
            startTime: Int64(Date().timeIntervalSince1970) - 4 * 3600
        )
        let simnet = try await Simnet.start(configuration)
        do {
            let truths = await simnet.addresses().filter(\.funded)
            guard let first = truths.first(where: { $0.address.hasPrefix("bc1q") }) ?? truths.first,
                let second = truths.first(where: { $0.address.hasPrefix("1") && $0.address != first.address })
            else { throw CommandFailure.runtime("the simnet has no funded addresses") }
            let followed = [first.address, second.address]
            let configPath = try DemoSetup.writeConfig(
                directory: data,
                baseURL: simnet.baseURL,
                followed: followed,
                price: await simnet.prices()[.usd] ?? 65_000
            )
            let config = try ConfigOptions.load(file: configPath)
            Output.out(
                """
                watcher demo: simnet at \(simnet.baseURL), data in \(config.storage.path)
                following \(first.address) (Savings) and \(second.address) (Cold storage)
                blocks, payments, confirmations and prices appear below; Ctrl-C stops.

                """
            )
            let daemon = Daemon(
                config: config,
                statusAddress: RunCommand.hostPort(http),
                httpToken: httpToken,
                onListening: { url in Output.out("web UI: \(url) (open it in a browser)") },
                checkInterval: .seconds(10),
                extraServices: [DemoDriver(simnet: simnet, followed: followed, logger: logger)],
                duration: duration.flatMap(Duration.init(configText:))
            )
            try await daemon.run(logger: logger)
        } catch {
            await simnet.shutdown()
            throw error
        }
        await simnet.shutdown()
        Output.out("\ndemo data left in \(data); try: watcher blocks --config \(data)/watcher.json")
    }
}
