import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WatcherHTTP
import WatcherSimnet
import WatcherTesting

/// A simnet and a `watcher run --http` process following one of its funded addresses (config watch `wallet`), a
/// wallet (watch `shop`, BIP84's account with gap 3), its blocks and USD, GBP and EUR prices: what the web UI tests
/// drive.
struct WebDaemon {
    let simnet: Simnet
    /// The `watcher run --http` process.
    let process: StatusDaemon
    let data: String
    /// The address the config follows.
    let followed: String

    /// `http://127.0.0.1:PORT` (also when the server binds a wider address).
    var base: String { process.base }
    /// The file the daemon logs to.
    var log: String { process.log }

    static func start(seed: UInt64, bind: String = "127.0.0.1", arguments: [String] = []) async throws -> WebDaemon {
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        var configuration = SimnetConfiguration(seed: seed, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(
            seed: seed,
            initialBlocks: 30,
            txsPerBlock: 4,
            fundedAddressCount: 40,
            startTime: Int64(Date().timeIntervalSince1970) - 8 * 3600
        )
        let simnet = try await Simnet.start(configuration)
        guard let followed = await simnet.addresses().first(where: \.funded)?.address else {
            await simnet.shutdown()
            throw TimedOut(what: "a funded simnet address")
        }
        let daemon: StatusDaemon
        do {
            let config = try DaemonConfig(
                data: data,
                simnetURL: simnet.baseURL,
                addresses: ["bitcoin:\(followed)?label=Savings"],
                confirmations: [1, 3],
                currencies: ["USD", "GBP", "EUR"],
                watches: [
                    #"{"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "gap": 3, "label": "Shop", "#
                        + #""descriptor": "\#(WalletHarness.descriptor)", "requests": {}}"#
                ]
            ).write()
            daemon = try await StatusDaemon.start(
                config: config,
                data: data,
                bind: bind,
                arguments: ["--check-interval", "2s"] + arguments
            )
        } catch {
            await simnet.shutdown()
            throw error
        }
        return WebDaemon(simnet: simnet, process: daemon, data: data, followed: followed)
    }

    /// Starts a daemon (``start(seed:bind:arguments:)``), waits until it is ``ready(_:)``, runs `body` with it and an
    /// HTTP client, and stops both whether `body` returns or throws.
    static func with(
        seed: UInt64,
        bind: String = "127.0.0.1",
        arguments: [String] = [],
        _ body: (WebDaemon, HTTPClient) async throws -> Void
    ) async throws {
        let daemon = try await start(seed: seed, bind: bind, arguments: arguments)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .untraced)
        do {
            try await daemon.ready(client)
            try await body(daemon, client)
        } catch {
            try? await client.shutdown()
            try await daemon.stop()
            throw error
        }
        try await client.shutdown()
        try await daemon.stop()
    }

    /// Waits until the daemon serves stored blocks, the followed address's balance and the three prices.
    func ready(_ client: HTTPClient) async throws {
        try await eventually(timeout: .seconds(60), "the daemon to store blocks, a balance and prices") {
            guard let blocks = try? await get(client, "/api/blocks"), blocks.body.contains("merkleRoot"),
                let accounts = try? await get(client, "/api/accounts"), accounts.body.contains("balanceBtc"),
                let prices = try? await get(client, "/api/prices")
            else { return false }
            return ["USD", "GBP", "EUR"].allSatisfy { prices.body.contains("\"\($0)\"") }
        }
    }

    /// A request to the status server.
    func get(
        _ client: HTTPClient,
        _ path: String,
        method: HTTPMethod = .GET,
        headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> (status: Int, body: String, headers: HTTPHeaders) {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), String(buffer: bytes), response.headers)
    }

    /// Stops the daemon (SIGTERM, then waits) and the simnet, and removes the data directory.
    func stop() async throws {
        try await WatcherProcess.stop(process.child)
        await simnet.shutdown()
        try? FileManager.default.removeItem(atPath: data)
    }

    /// The repository's root (for `docs/` and `scripts/`): this file is `Tests/IntegrationTests/Web/WebDaemon.swift`.
    static var repository: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }

    /// Runs a python script of `scripts/`, feeding `input`; returns its status and output.
    static func python(_ script: String, _ arguments: [String], input: String = "") async throws -> (
        status: Int32, output: String
    ) {
        let scratch = NSTemporaryDirectory() + "watcher-python-\(UUID().uuidString.prefix(12))"
        let (inputPath, outputPath) = (scratch + ".in", scratch + ".out")
        defer {
            try? FileManager.default.removeItem(atPath: inputPath)
            try? FileManager.default.removeItem(atPath: outputPath)
        }
        try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        let process = try ChildProcess(
            ProcessInfo.processInfo.environment["WATCHER_PYTHON"] ?? "/usr/bin/python3",
            arguments: [repository.appendingPathComponent("scripts/\(script)").path] + arguments,
            input: .file(inputPath),
            output: .file(outputPath),
            error: .output
        )
        try await eventually(timeout: .seconds(300), "\(script) to finish") { !process.isRunning }
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
