import ArgumentParser
import Foundation
import Logging
import WatcherConfiguration
import WatcherCore

/// `watcher run`: the daemon.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the watcher until SIGINT or SIGTERM; SIGHUP reloads the config.",
        discussion: """
            Stops cleanly within 5 seconds of SIGINT or SIGTERM, with the store flushed and closed. SIGHUP (or \
            `watcher reload`) loads the config file again: an invalid one is refused and logged, a valid one is \
            applied without a restart.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Option(help: "Serve the web UI, /healthz, /metrics and /api/* on HOST:PORT (e.g. 127.0.0.1:9110).")
    var http: String?

    @Option(
        help: ArgumentHelp(
            "The bearer token adding and removing accounts over HTTP needs; required for that when --http is not loopback. Pass it from the environment: --http-token \"$WATCHER_HTTP_TOKEN\".",
            valueName: "TOKEN"
        )
    )
    var httpToken: String?

    @Option(
        help: ArgumentHelp(
            "How many clients /api/events/stream serves at once; the next one gets 503 with Retry-After.",
            valueName: "N"
        )
    )
    var httpStreamClients: Int = 64

    @Option(help: "How often providers are probed for reachability and sync state, e.g. 30s.")
    var checkInterval: String = "30s"

    @Option(
        help: ArgumentHelp(
            "Follow only the addresses (and wallets, by id) whose hash falls in shard K of N (e.g. 2/3); block-level watches run whole.",
            valueName: "K/N"
        )
    )
    var shard: String?

    func validate() throws {
        guard Duration(configText: checkInterval).map({ $0 >= .seconds(1) }) == true else {
            throw ValidationError("--check-interval: expected a duration of at least 1s, such as \"30s\"")
        }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard: expected K/N with 1 <= K <= N <= 1024, such as 2/3, got \"\(shard)\"")
        }
        if let http, Self.hostPort(http) == nil {
            throw ValidationError("--http: expected HOST:PORT such as 127.0.0.1:9110, got \"\(http)\"")
        }
        try Self.validate(httpToken: httpToken, http: http)
        guard (1...100_000).contains(httpStreamClients) else {
            throw ValidationError("--http-stream-clients: expected 1 to 100000, got \(httpStreamClients)")
        }
    }

    /// A token must be non-empty (an unset variable in `--http-token "$VAR"` must not open writes) and needs
    /// `--http`.
    static func validate(httpToken: String?, http: String?) throws {
        guard let httpToken else { return }
        if httpToken.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--http-token: the token is empty (is the environment variable set?)")
        }
        if http == nil { throw ValidationError("--http-token needs --http") }
    }

    static func hostPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    func run() async throws {
        let logger = Logger(label: "watcher")
        // A SIGHUP so far (HangupGate holds it) has nothing to reload: the file is read now. One from here on is
        // applied as a reload once the daemon runs.
        if HangupGate.take() > 0 { logger.notice("SIGHUP before the configuration was loaded: nothing to reload") }
        var config = try options.load()
        let shard = shard.flatMap(Shard.init)
        if let shard {
            let before = config.watches.filter { $0.kind == .address }.map(\.addresses.count).reduce(0, +)
            let walletsBefore = config.watches.filter { $0.kind == .wallet }.count
            config.watches = shard.apply(to: config.watches)
            let after = config.watches.filter { $0.kind == .address }.map(\.addresses.count).reduce(0, +)
            let walletsAfter = config.watches.filter { $0.kind == .wallet }.count
            logger.notice(
                "shard \(shard): following \(after) of \(before) configured addresses and \(walletsAfter) of \(walletsBefore) wallets"
            )
        }
        var daemon = Daemon(
            config: config,
            statusAddress: http.flatMap(Self.hostPort),
            httpToken: httpToken,
            streamClients: httpStreamClients,
            checkInterval: Duration(configText: checkInterval) ?? .seconds(30)
        )
        let registry = CommandPlugins.registry
        let file = options.config
        daemon.reload = { () throws(ConfigError) -> WatcherConfig in
            var config = try ConfigLoader(registry: registry).load(file: file)
            if let shard { config.watches = shard.apply(to: config.watches) }
            return config
        }
        try await daemon.run(logger: logger)
    }
}
