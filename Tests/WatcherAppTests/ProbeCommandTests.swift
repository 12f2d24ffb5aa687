import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// `watcher probe` as a real process against an in-process simnet: every query on every adapter, the exit
/// codes, and the provider's rate limit.
@Suite(.serialized)
struct ProbeCommandTests {
    /// A simnet, a config naming one provider of each adapter at it, and a runner.
    struct Setup {
        let simnet: Simnet
        let directory: TemporaryDirectory
        let config: String

        static func start(blockbookLimit: String = #"{"requests": 600, "per": "1m"}"#) async throws -> Setup {
            let simnet = try await Simnet.start(SimnetConfiguration(seed: 11, txsPerBlock: 16))
            let directory = try TemporaryDirectory()
            let base = simnet.baseURL
            let config = try directory.write(
                "watcher.json",
                """
                {"storage": {"path": "./data"},
                 "providers": [
                   {"id": "bb", "type": "blockbook", "options": {"url": "\(base)"}, "rateLimit": \(blockbookLimit)},
                   {"id": "bci", "type": "rawaddr", "options": {"url": "\(base)"}, "rateLimit": {"requests": 600, "per": "1m"}},
                   {"id": "cd", "type": "coindesk", "options": {"url": "\(base)"}},
                   {"id": "cb", "type": "json-price",
                    "options": {"preset": "coinbase", "url": "\(base)/v2/prices/BTC-{currency}/spot"}}
                 ]}
                """
            )
            return Setup(simnet: simnet, directory: directory, config: config)
        }

        func probe(_ arguments: String...) async throws -> WatcherProcess.Result {
            try await WatcherProcess.run(["probe", "--config", config] + arguments, timeout: .seconds(30))
        }

        /// Runs a probe that must succeed and parses its JSON.
        func json(_ arguments: String...) async throws -> JSONValue {
            let result = try await WatcherProcess.run(["probe", "--config", config] + arguments, timeout: .seconds(30))
            #expect(result.status == 0, "probe \(arguments): \(result.stderr)")
            return try JSONValue.parse(result.stdout)
        }

        func stop() async {
            await simnet.shutdown()
            directory.remove()
        }

        /// Starts a setup, runs `body` and stops it whatever happens.
        static func with(
            blockbookLimit: String = #"{"requests": 600, "per": "1m"}"#,
            _ body: (Setup) async throws -> Void
        ) async throws {
            let setup = try await start(blockbookLimit: blockbookLimit)
            do {
                try await body(setup)
            } catch {
                await setup.stop()
                throw error
            }
            await setup.stop()
        }
    }

    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .number(let text)?: text
        case .string(let text)?: text
        default: nil
        }
    }

    @Test func chainQueriesOnBothChainAdapters() async throws {
        try await Setup.with { setup in
            let chain = await setup.simnet.chain()
            let tip = chain.tip
            for id in ["bb", "bci"] {
                let json = try await setup.json(id, "tip")
                #expect(
                    json == .object([.init("height", .number("\(tip.height)")), .init("hash", .string(tip.hash))]),
                    "\(id) tip"
                )
            }
            let block = try #require(chain.block(height: tip.height - 1))
            for id in ["\(block.height)", block.hash] {
                let json = try await setup.json("bb", "block", id)
                #expect(
                    json.members?.map(\.key) == [
                        "hash", "height", "time", "merkleRoot", "nonce", "txCount", "previousHash",
                    ]
                )
                #expect(json["hash"] == .string(block.hash) && json["nonce"] == .number("\(block.nonce)"))
                #expect(
                    json["txCount"] == .number("\(block.txCount)")
                        && json["previousHash"] == .string(block.previousBlockHash)
                )
                let time = Date(timeIntervalSince1970: TimeInterval(block.time)).formatted(.iso8601)
                #expect(json["time"] == .string(time) && time.hasSuffix("Z"))
            }

            let truth = try #require(await setup.simnet.addresses().max { $0.confirmedTxCount < $1.confirmedTxCount })
            for (id, argument) in [("bb", truth.address), ("bci", "bitcoin:\(truth.address)?label=Savings")] {
                let json = try await setup.json(id, "address", argument)
                #expect(json["address"] == .string(truth.address), "\(id)")
                #expect(Self.text(json["balanceSat"]) == "\(truth.confirmedBalanceSat)", "\(id) balance")
                #expect(Self.text(json["txCount"]) == "\(truth.confirmedTxCount)", "\(id) txCount")
                #expect(
                    Self.text(json["unconfirmedBalanceSat"]) == "\(truth.unconfirmedBalanceSat)",
                    "\(id) unconfirmed"
                )
            }

            let fromBlockbook = try await setup.json("bb", "txs", truth.address, "--limit", "3")
            let fromRawaddr = try await setup.json("bci", "txs", truth.address, "--limit", "3")
            #expect(fromBlockbook.arrayValue?.count == 3)
            #expect(fromBlockbook == fromRawaddr, "both adapters list the same newest three, with the same net effects")
            #expect(fromBlockbook[0]?.members?.map(\.key) == ["txid", "blockHeight", "time", "deltaSat"])

            let txid = try #require(block.txids.last)
            let tx = try await setup.json("bb", "tx", txid)
            #expect(tx["txid"] == .string(txid) && tx["confirmations"] == .number("2"))
            #expect(tx.members?.map(\.key) == ["txid", "blockHeight", "confirmations", "feeSat", "inputs", "outputs"])
            #expect(tx["outputs"]?[0]?.members?.map(\.key) == ["address", "valueSat"])
            let mempool = try #require(chain.mempool.first)
            let pending = try await setup.json("bb", "tx", mempool)
            #expect(pending["blockHeight"] == .null && pending["confirmations"] == .number("0"))
        }
    }

    @Test func priceOnEachPriceAdapter() async throws {
        try await Setup.with { setup in
            await setup.simnet.setPrices([.usd: Decimal(6_543_210) / 100, .gbp: 51_000, .eur: Decimal(600_015) / 10])
            for id in ["bb", "cd", "cb"] {
                let json = try await setup.json(id, "price")
                let quotes = (json.arrayValue ?? []).map { (Self.text($0["currency"]), Self.text($0["price"])) }
                #expect(quotes.map(\.0) == ["USD", "GBP", "EUR"], "\(id)")
                #expect(quotes.map(\.1) == ["65432.1", "51000", "60001.5"], "\(id)")
                #expect(json[0]?["time"]?.stringValue?.hasSuffix("Z") == true)
            }
            let one = try await setup.json("cd", "price", "eur")
            #expect(one.arrayValue?.count == 1 && one[0]?["currency"] == .string("EUR"))
        }
    }

    @Test func invalidInputExitsTwoBeforeAnyRequest() async throws {
        try await Setup.with { setup in
            await setup.simnet.resetStats()
            let bad = try await setup.probe("bb", "address", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5")
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("invalid address"))
            for arguments in [
                ["bb", "txs", "bitcoin:?lightning=lnbc1"], ["bb", "tx", "xyz"], ["bb", "block", "-1"], ["bb", "frob"],
            ] {
                let result = try await WatcherProcess.run(["probe", "--config", setup.config] + arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
            }
            let unknown = try await setup.probe("nope", "tip")
            #expect(unknown.status == 2 && unknown.stderr.contains("no provider \"nope\""))
            // A valid testnet address on a mainnet provider: refused offline too, naming both networks.
            for id in ["bb", "bci"] {
                let testnet = try await setup.probe(id, "txs", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx")
                #expect(testnet.status == 2, "\(id): \(testnet.stderr)")
                #expect(
                    testnet.stderr.contains(
                        "is a testnet address; provider \(id) serves chain \"btc\", which is mainnet"
                    )
                )
            }
            let stats = await setup.simnet.stats()
            #expect(stats.families.values.allSatisfy { $0.requests == 0 }, "no request was sent")
        }
    }

    @Test func providerFailuresExitOneNamingTheProvider() async throws {
        try await Setup.with { setup in
            await setup.simnet.setFaults(family: .blockbook, FaultConfiguration(rate: 1, kinds: [.serverError]))
            let failed = try await setup.probe("bb", "tip")
            #expect(failed.status == 1)
            #expect(
                failed.stderr.trimmingCharacters(in: .newlines)
                    == "error: provider bb: unavailable (HTTP 500): Internal server error"
            )
            let unsupported = try await setup.probe("bci", "tx", String(repeating: "ab", count: 32))
            #expect(
                unsupported.status == 1 && unsupported.stderr.contains("provider bci: does not support transaction")
            )
            let notPrice = try await setup.probe("bci", "price")
            #expect(notPrice.status == 1 && notPrice.stderr.contains("provider bci: does not support prices"))
            let missing = try await setup.probe("cd", "tip")
            #expect(missing.status == 1 && missing.stderr.contains("provider cd"))
        }
    }

    @Test func theProvidersRateLimitPacesItsRequests() async throws {
        // Two requests a second, no burst: `tx` of a confirmed transaction asks the transaction, then the tip
        // (status page and block index), so its three requests go half a second apart.
        try await Setup.with(blockbookLimit: #"{"requests": 2, "per": "1s", "burst": 1}"#) { setup in
            let txid = try #require(await setup.simnet.chain().tip.txids.first)
            await setup.simnet.resetStats()
            let started = ContinuousClock.now
            let tx = try await setup.json("bb", "tx", txid)
            let elapsed = ContinuousClock.now - started
            #expect(tx["confirmations"] == .number("1"))
            #expect(await setup.simnet.stats().families[.blockbook]?.requests == 3)
            // Two waits of half a second at least, whatever the connection latencies.
            #expect(elapsed >= .milliseconds(1_000), "three requests in \(elapsed)")
        }
    }
}
