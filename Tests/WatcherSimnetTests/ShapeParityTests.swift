import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// For each kind of real body the simnet imitates, every key path of the real fixture appears in the
/// simnet's body with the same JSON type (extra simnet keys are fine). Fixtures: `Fixtures/SOURCES.md`.
///
/// Several Blockbook fields are omitted when empty (`omitempty`: `vout` 0, `lockTime` 0, `spent` false,
/// `isOwn` false, …), so where a field depends on the data the test looks through candidate bodies
/// (e.g. the transactions of one block) for one that covers the fixture. Documented exceptions are
/// listed next to each case.
@Suite("Shape parity with real provider bodies")
struct ShapeParityTests {
    private static let configuration = SimnetConfiguration(seed: 42)

    /// Asserts that at least one candidate body covers the fixture's shape.
    private func expectParity(
        fixture: String,
        paths candidates: [String],
        simnet: Simnet,
        except exceptions: [JSONShape.Exception] = [],
        select: (JSONValue) -> JSONValue = { $0 }
    ) async throws {
        let real = JSONShape(select(try JSONValue.parse(try SimnetHarness.fixture(fixture))))
        var best: [String]?
        for path in candidates {
            let answer = try await SimnetHarness.get(simnet, path)
            #expect(answer.status == 200, "\(path) answered \(answer.status): \(answer.text.prefix(200))")
            let problems = JSONShape(try answer.json()).violations(coveringReal: real, except: exceptions)
            if problems.isEmpty { return }
            if best == nil || problems.count < best?.count ?? 0 { best = problems }
        }
        Issue.record("no simnet body covers \(fixture): \(best ?? ["no candidates"])")
    }

    /// Bodies at paths that do not depend on what the chain holds: (fixture, candidate paths).
    @Test(arguments: [
        ("blockbook/status.json", ["/api/"]),
        ("blockbook/block-index.json", ["/api/v2/block-index/800001"]),
        ("blockbook/tickers-usd.json", ["/api/v2/tickers/?currency=usd"]),
        // tickers.json lists eur and usd; the simnet lists eur, gbp and usd.
        ("blockbook/tickers.json", ["/api/v2/tickers/"]),
        ("price/coindesk_currentprice_2021-09-30.json", ["/v1/bpi/currentprice.json"]),
        (
            "price/coinbase_v2_prices_btc_usd_spot.json",
            ["/v2/prices/BTC-USD/spot", "/v2/prices/BTC-GBP/spot", "/v2/prices/BTC-EUR/spot"]
        ),
    ])
    func bodiesAtFixedPaths(fixture: String, paths: [String]) async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await expectParity(fixture: fixture, paths: paths, simnet: simnet)
        }
    }

    @Test func blockbookBlock() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 4)
            // A block below the tip, so `nextBlockHash` exists and some of its outputs are spent.
            for fixture in ["blockbook/block-2648059-page1.json", "blockbook/block-225493-page1.json"] {
                try await expectParity(fixture: fixture, paths: ["/api/v2/block/800002"], simnet: simnet)
            }
        }
    }

    @Test func blockbookTransactions() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 2)
            let chain = await simnet.chain()
            let block = try #require(chain.block(height: 800003))
            let confirmed = block.txids.dropFirst().map { "/api/v2/tx/\($0)" }
            // tx.json has an input with `vout` 1 and a non-zero `lockTime`: omitted by Blockbook when 0.
            try await expectParity(fixture: "blockbook/tx.json", paths: confirmed, simnet: simnet)
            try await expectParity(fixture: "blockbook/tx-testchain.json", paths: confirmed, simnet: simnet)

            let funded = try #require(await simnet.addresses().first)
            for _ in 0..<4 { try await simnet.pay(to: funded.address, amountSat: 10_000) }
            let mempool = await simnet.chain().mempool.map { "/api/v2/tx/\($0)" }
            // tx-unconfirmed.json: coinSpecificData.vin[].txinwitness needs a segwit input, so look
            // through the mempool for one.
            try await expectParity(fixture: "blockbook/tx-unconfirmed.json", paths: mempool, simnet: simnet)
        }
    }

    @Test func blockbookAddressAtEachDetailsLevel() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 3)
            let busiest = try #require(await simnet.addresses().max { $0.confirmedTxCount < $1.confirmedTxCount })
            let base = "/api/v2/address/\(busiest.address)"
            // No real details=tokens body is in the fixtures; for a Bitcoin address it is the basic body
            // plus the unconfirmed fields, so the basic fixture must be covered by both.
            for details in ["basic", "tokens"] {
                try await expectParity(
                    fixture: "blockbook/address-basic.json",
                    paths: ["\(base)?details=\(details)"],
                    simnet: simnet
                )
            }
            for fixture in ["blockbook/address-txids.json", "blockbook/address-txids-testchain.json"] {
                try await expectParity(fixture: fixture, paths: [base, "\(base)?details=txids"], simnet: simnet)
            }
            for fixture in ["blockbook/address-txs.json", "blockbook/address-txs-ltc-mainnet.json"] {
                try await expectParity(fixture: fixture, paths: ["\(base)?details=txs"], simnet: simnet)
            }
        }
    }

    @Test func blockbookXpub() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            let zpub = XpubEndpointTests.zpub
            let wallet = try WalletDescriptor(parsing: zpub, network: .mainnet)
            // Payments in and out of the wallet, so that tokens have balances and some outputs are spent.
            let first = try wallet.address(.receive, index: 0).address.string
            let change = try wallet.address(.change, index: 2).address.string
            // Paid from a legacy address: its input has a scriptSig, so `vin[].hex` appears (Blockbook omits it
            // when empty, as it is for a segwit input).
            let legacy = try #require(
                await simnet.addresses().first { $0.kind == .p2pkh && $0.funded && $0.confirmedBalanceSat > 200_000 }
            )
            _ = try await simnet.pay(to: first, amountSat: 90_000, from: legacy.address)
            try await simnet.mine(count: 1)
            let outside = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
            _ = try await simnet.pay(to: outside, amountSat: 20_000, from: first, change: change)
            try await simnet.mine(count: 1)
            // The change (output 1) spent in turn: an input with a non-zero `vout`, which Blockbook omits when 0.
            _ = try await simnet.pay(to: outside, amountSat: 10_000, from: change)
            try await simnet.mine(count: 1)
            let escaped = zpub.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? zpub
            let base = "/api/v2/xpub/\(escaped)"
            try await expectParity(
                fixture: "blockbook/xpub-zpub-mainnet-txs.json",
                paths: ["\(base)?details=txs&pageSize=10"],
                simnet: simnet
            )
            try await expectParity(fixture: "blockbook/xpub-txids.json", paths: [base], simnet: simnet)
        }
    }

    @Test func rawaddrMultiaddrAndLatestBlock() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 3)
            let truths = await simnet.addresses()
            let p2pkh = try #require(
                truths.filter { $0.kind == .p2pkh }.max { $0.confirmedTxCount < $1.confirmedTxCount }
            )
            for fixture in [
                "rawaddr/rawaddr_p2pkh_2tx_zero_balance.json", "rawaddr/rawaddr_p2pkh_page_of_3340_txs.json",
            ] {
                try await expectParity(fixture: fixture, paths: ["/rawaddr/\(p2pkh.address)"], simnet: simnet)
            }
            let pair = truths.prefix(2).map(\.address).joined(separator: "%7C")
            for fixture in ["rawaddr/multiaddr_single_bech32_2tx.json", "rawaddr/multiaddr_two_bech32_3tx.json"] {
                try await expectParity(fixture: fixture, paths: ["/multiaddr?active=\(pair)&n=100"], simnet: simnet)
            }
            // No /latestblock body is in the fixtures; multiaddr's `info.latest_block` is the same object
            // (hash, height, time, block_index), so compare against that real sub-object.
            try await expectParity(
                fixture: "rawaddr/multiaddr_two_bech32_3tx.json",
                paths: ["/latestblock"],
                simnet: simnet,
                select: { $0["info"]?["latest_block"] ?? .null }
            )
        }
    }
}
