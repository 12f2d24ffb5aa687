import Foundation
import Testing
import WatcherCore
import WatcherHTTP
import WatcherJSON
import WatcherTesting

@testable import BitcoindAdapter

/// Each RPC the adapter makes, answered from the recorded bodies over real loopback HTTP.
@Suite struct BitcoindFixtureTests {
    static let cookie = "__cookie__:a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

    /// Runs `body` with a provider on `node`, authenticated by a cookie file the node accepts.
    @discardableResult
    func withProvider<T>(
        _ node: RecordedNode,
        chain: String = "btc",
        prevouts: Bool = true,
        options: HTTPOptions = .standard,
        _ body: (BitcoindProvider) async throws -> T
    ) async throws -> T {
        try await Recorded.withCookie(Self.cookie) { path in
            node.accept(Recorded.basic(Self.cookie))
            return try await node.serve { url in
                try await FixtureServer.withTransport { http in
                    let provider = BitcoindProvider(
                        id: "node",
                        baseURL: url,
                        http: http,
                        options: options,
                        auth: .cookieFile(path),
                        chain: chain,
                        prevouts: prevouts
                    )
                    return try await body(provider)
                }
            }
        }
    }

    @Test func tipIsOneGetblockchaininfoInJSONRPC10WithTheCookie() async throws {
        let node = RecordedNode([
            "getblockchaininfo": .result(try Recorded.json("getblockchaininfo-main-764955-core23.json"))
        ])
        let tip = try await withProvider(node) { try await $0.tip() }
        #expect(
            tip == BlockRef(height: 764_955, hash: "00000000000000000004a8bb673a583bfeccb92d93dc785818877ed04b7502ed")
        )
        #expect(node.methods == ["getblockchaininfo"])
        #expect(node.requests == 1)
        #expect(node.versions == ["1.0"])
    }

    @Test func requestsSayJSONRPC20OnceTheNodeIsCore28() async throws {
        let node = RecordedNode([
            "getblockchaininfo": .result(try Recorded.json("getblockchaininfo-main-764955-core23.json"))
        ])
        try await withProvider(node) { provider in
            provider.rpc.useVersion2(270_100)
            _ = try await provider.tip()
            provider.rpc.useVersion2(280_000)
            _ = try await provider.tip()
        }
        #expect(node.versions == ["1.0", "2.0"])
    }

    @Test func healthOfASyncedNodeAndOfALegacyOne() async throws {
        for (name, height) in [
            ("getblockchaininfo-main-764955-core23.json", 764_955),
            ("getblockchaininfo-main-464562-core0141-legacy.json", 464_562),
        ] {
            let node = RecordedNode(["getblockchaininfo": .result(try Recorded.json(name))])
            let health = try await withProvider(node) { try await $0.health() }
            #expect(health == ProviderHealth(isHealthy: true, bestHeight: height), "\(name)")
            // getnetworkinfo rides in the same request.
            #expect(node.methods == ["getblockchaininfo", "getnetworkinfo"])
            #expect(node.requests == 1)
        }
    }

    @Test func aNodeOnAnotherChainIsAChainMismatchFromHealthAndTip() async throws {
        let node = RecordedNode([
            "getblockchaininfo": .result(try Recorded.json("getblockchaininfo-main-764955-core23.json"))
        ])
        let expected = ChainMismatch(
            provider: "node",
            reported: "main",
            source: "getblockchaininfo.chain",
            configured: "btc-testnet4",
            expected: "testnet4"
        )
        try await withProvider(node, chain: "btc-testnet4") { provider in
            await #expect(throws: expected) { try await provider.health() }
            let error = await #expect(throws: ChainMismatch.self) { try await provider.tip() }
            #expect(
                error?.description.hasPrefix(
                    #"provider node: the node is on "main" (getblockchaininfo.chain), the config says chain "btc-testnet4", which is "testnet4""#
                ) == true,
                "\(String(describing: error))"
            )
        }
    }

    @Test func warmingUpIsUnhealthyAndTipUnavailable() async throws {
        let node = RecordedNode([
            "getblockchaininfo": .error(try Recorded.json("error-object-rpc-28-warmup-loading-block-index.json"))
        ])
        try await withProvider(node) { provider in
            let health = try await provider.health()
            #expect(health == ProviderHealth(isHealthy: false, reason: "warming up: Loading block index…"))
            let error = await #expect(throws: ProviderError.self) { try await provider.tip() }
            #expect(error?.description == "provider node: unavailable: the node is warming up: Loading block index…")
        }
    }

    @Test func headerByHashAndByHeight() async throws {
        let header = try Recorded.json("getblockheader-test-1000-core0121.json")
        let hash = try #require(header["hash"]?.stringValue)
        let node = RecordedNode([
            "getblockheader": .result(header),
            // getblockhash answers the hash the recorded header names.
            "getblockhash [1000]": .result(.string(hash)),
        ])
        try await withProvider(node, chain: "btc-testnet") { provider in
            let byHash = try await provider.block(.hash(hash))
            #expect(byHash.height == 1000)
            #expect(byHash.merkleRoot == "fe28050b93faea61fa88c4c630f0e1f0a1c24d0082dd0e10d369e13212128f33")
            #expect(byHash.nonce == 2_595_206_198)
            #expect(byHash.time == Date(timeIntervalSince1970: 1_232_346_882))
            #expect(byHash.previousHash == "0000000008e647742775a230787d66fdf92c46a48c896bfbc85cdc8acc67e87d")
            #expect(try await provider.block(.height(1000)) == byHash)
        }
        #expect(node.calls == ["getblockheader [\"\(hash)\"]", "getblockhash [1000]", "getblockheader [\"\(hash)\"]"])
    }

    @Test func heightPastTheTipReReadsTheTipAndIsNotFound() async throws {
        let node = RecordedNode([
            "getblockhash": .error(try Recorded.json("error-object-rpc-8-block-height-out-of-range.json")),
            "getblockchaininfo": .result(try Recorded.json("getblockchaininfo-main-764955-core23.json")),
        ])
        try await withProvider(node) { provider in
            await #expect(throws: ProviderError.notFound(provider: "node", what: "block 764956 (the tip is at 764955)"))
            {
                try await provider.block(.height(764_956))
            }
        }
        #expect(node.methods == ["getblockhash", "getblockchaininfo"])
    }

    @Test func rawBlockTransactionsInOneBatch() async throws {
        let block = try Recorded.json("getblock-main-1-verbosity1-core0131.json")
        let hash = try #require(block["hash"]?.stringValue)
        let node = RecordedNode([
            "getblock [\"\(hash)\",0]": .result(try Recorded.hex("getblock-main-1-verbosity0-core0131.txt")),
            // The verbosity-1 block carries every getblockheader field the adapter reads.
            "getblockheader": .result(block),
        ])
        let page = try await withProvider(node, prevouts: false) {
            try await $0.blockTransactions(.hash(hash), page: 1)
        }
        #expect(node.requests == 1)
        #expect(page.page == 1 && page.totalPages == 1)
        let coinbase = try #require(page.transactions.first)
        #expect(coinbase.txid == "0e3e2357e806b6cdb1f70b54c3a3a17b6714ee1f0e68bebb44a74b1efd512098")
        #expect(coinbase.blockHeight == 1)
        #expect(coinbase.blockHash == hash)
        // A pay-to-pubkey output has no address; its value is exact.
        #expect(coinbase.outputs == [TxEndpoint(address: nil, valueSat: 5_000_000_000)])
        #expect(coinbase.inputs == [TxEndpoint(address: nil, valueSat: 0)])
    }

    @Test func aBlockThatHashesToAnotherIsRefused() async throws {
        let block = try Recorded.json("getblock-main-1-verbosity1-core0131.json")
        let other = String(repeating: "0", count: 63) + "1"
        let node = RecordedNode([
            "getblock": .result(try Recorded.hex("getblock-main-1-verbosity0-core0131.txt")),
            "getblockheader": .result(block),
        ])
        let error = try await withProvider(node, prevouts: false) { provider in
            await #expect(throws: ProviderError.self) { try await provider.blockTransactions(.hash(other), page: 1) }
        }
        #expect(
            error?.description.contains("hashing to 00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048")
                == true
        )
    }

    @Test func aMempoolTransactionFromItsRawHex() async throws {
        let txid = "80b19848aed792565ab7c5a79b7c2a00fbf985741579396ebe0ab6098e607311"
        let node = RecordedNode([
            "getrawtransaction [\"\(txid)\",2]": .result(
                try Recorded.json("getrawtransaction-verbose-regtest-80b19848-mempool.json")
            )
        ])
        let tx = try await withProvider(node, chain: "btc-regtest") { try await $0.transaction(txid) }
        #expect(tx.blockHeight == nil && tx.blockHash == nil)
        #expect(
            tx.outputs[0] == TxEndpoint(address: "bcrt1qn7d2x7272lznt5hhk9s07q3cqnrqljnwladrd3", valueSat: 30_000_000)
        )
        #expect(
            tx.outputs[1] == TxEndpoint(address: "bcrt1qgdp7aa38x3p2kpn2s5486mkvvx2sktnmylscfs", valueSat: 79_999_200)
        )
        // A mempool transaction carries no prevouts: its parents are asked for in one more batch, which this
        // recording cannot answer, so the fee stays unknown.
        #expect(tx.feeSat == nil)
        #expect(node.requests == 2)
        #expect(node.methods == ["getrawtransaction", "getrawtransaction"])
    }

    @Test func unknownTransactionIsNotFoundWithTheTxindexHint() async throws {
        let txid = String(repeating: "ab", count: 32)
        let node = RecordedNode([
            "getrawtransaction": .error(
                try Recorded.json("error-object-rpc-5-no-such-mempool-transaction-no-txindex.json")
            )
        ])
        try await withProvider(node) { provider in
            await #expect(
                throws: ProviderError.notFound(
                    provider: "node",
                    what: "transaction \(txid) (the node has no -txindex, and no recent block read held it)"
                )
            ) { try await provider.transaction(txid) }
        }
        let plain = RecordedNode([
            "getrawtransaction": .error(
                try Recorded.json("error-object-rpc-5-no-such-mempool-or-blockchain-transaction.json")
            )
        ])
        try await withProvider(plain) { provider in
            await #expect(throws: ProviderError.notFound(provider: "node", what: "transaction \(txid)")) {
                try await provider.transaction(txid)
            }
        }
    }

    @Test func theRecordedMempoolListAndTransactionDecode() async throws {
        let txid = "95d51e813daeb9a861b2dcdddf1da8c198d06452bbbecfd827447881ff79e061"
        let node = RecordedNode([
            "getrawmempool": .result(try Recorded.json("getrawmempool-testnet-lbtc.json")),
            "getrawtransaction": .result(
                try Recorded.json("getrawtransaction-verbose-testnet-95d51e81-mempool-lbtc.json")
            ),
        ])
        try await withProvider(node, chain: "btc-testnet") { provider in
            #expect(try await provider.mempoolTxids() == [txid])
            let read = try await provider.mempoolTransactions([txid])
            #expect(read.map(\.transaction.txid) == [txid])
            #expect(read.first?.transaction.blockHash == nil)
            #expect(
                read.first?.transaction.outputs.first
                    == TxEndpoint(address: "2NFAkGiwnp8wvCodRBx3smJwxncuG3hndn5", valueSat: 1_000_000)
            )
            #expect(read.first?.transaction.outputs.last?.valueSat == 2_598_722)
        }
        // The list, then the transactions in one batch (the spent outputs after them are not recorded).
        #expect(node.methods.prefix(2) == ["getrawmempool", "getrawtransaction"])
    }

    @Test func aBodyOverTheCapIsAClearError() async throws {
        let node = RecordedNode(["getblock": .result(try Recorded.hex("getblock-main-1-verbosity0-core0131.txt"))])
        let hash = "00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048"
        let error = try await withProvider(node, options: HTTPOptions(maxBodyBytes: 100)) { provider in
            await #expect(throws: ProviderError.self) { try await provider.blockTransactions(.hash(hash), page: 1) }
        }
        #expect(error?.description.contains("larger than maxBodyBytes (100 bytes)") == true)
    }

    @Test func amountsAreReadFromTheTextIntoSatoshis() {
        #expect(BitcoindDecoder.satoshis("0.30000000") == 30_000_000)
        #expect(BitcoindDecoder.satoshis("8.49029534") == 849_029_534)
        #expect(BitcoindDecoder.satoshis("8.8687") == 886_870_000)
        #expect(BitcoindDecoder.satoshis("20999999.97690000") == 2_099_999_997_690_000)
        #expect(BitcoindDecoder.satoshis("0.000000010") == 1)
        #expect(BitcoindDecoder.satoshis("-0.00000001") == -1)
        #expect(BitcoindDecoder.satoshis("0.000000001") == nil)
        #expect(BitcoindDecoder.satoshis("1e-8") == nil)
        #expect(BitcoindDecoder.satoshis("1.") == nil)
        #expect(BitcoindDecoder.satoshis("99999999999999999") == nil)
    }
}
