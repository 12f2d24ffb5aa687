import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `watcher simnet --network regtest`: a chain from the real regtest genesis block, its blocks real above it, its
/// addresses regtest's, its coinbases maturing as Core's do. The bytes are checked against Core's genesis
/// (Fixtures/bitcoind/SOURCES.md) and recomputed from the blocks, not taken from the simnet's own bookkeeping.
@Suite("Regtest chain")
struct RegtestChainTests {
    static let genesisHash = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"

    static func chain(seed: UInt64) -> ChainModel {
        ChainModel(parameters: ChainParameters(seed: seed, network: .regtest))
    }

    /// Core's `CScript() << height` (BIP34) for heights above 16.
    static func heightPush(_ height: Int) -> [UInt8] {
        if height <= 16 { return [height == 0 ? 0x00 : 0x50 + UInt8(height)] }
        var number: [UInt8] = []
        var value = height
        while value > 0 {
            number.append(UInt8(value & 0xff))
            value >>= 8
        }
        if let last = number.last, last & 0x80 != 0 { number.append(0) }
        return [UInt8(number.count)] + number
    }

    @Test("the node face serves regtest's genesis block byte for byte at height 0, and says it runs regtest")
    func genesisIsCoresBlock() async throws {
        let fixture = String(
            decoding: try NodeHarness.fixture("getblock-regtest-0-verbosity0-genesis-transcribed.txt"),
            as: UTF8.self
        )
        try await Simnet.with(SimnetConfiguration(chain: ChainParameters(seed: 7, network: .regtest))) { simnet in
            #expect(try await NodeHarness.result(simnet, "getblockhash", "[0]") == .string(Self.genesisHash))
            let raw = try await NodeHarness.result(simnet, "getblock", #"["\#(Self.genesisHash)", 0]"#)
            #expect(raw == .string(fixture))
            let header = try await NodeHarness.result(simnet, "getblockheader", #"["\#(Self.genesisHash)", false]"#)
            #expect(header == .string(String(fixture.prefix(160))))
            let info = try await NodeHarness.result(simnet, "getblockchaininfo")
            #expect(info["chain"] == .string("regtest"))
            let one = try await NodeHarness.result(
                simnet,
                "getblockheader",
                #"["\#(try await NodeHarness.result(simnet, "getblockhash", "[1]").stringValue ?? "")"]"#
            )
            #expect(one["previousblockhash"] == .string(Self.genesisHash))
        }
    }

    @Test("every block above genesis is real: header hash, parent link, merkle root, proof of work, BIP34 height")
    func blocksAreRealAboveGenesis() throws {
        var chain = Self.chain(seed: UInt64.random(in: 0...UInt64.max))
        _ = try chain.mine(count: 3)
        #expect(chain.blocks[0].hash == Self.genesisHash)
        #expect(chain.blocks[0].height == 0)
        for (index, block) in chain.blocks.enumerated() {
            #expect(block.height == index)
            #expect(block.header.hash.displayHex == block.hash)
            if index > 0 {
                #expect(block.previousBlockHash == chain.blocks[index - 1].hash)
                #expect(block.header.previousBlockHash.displayHex == chain.blocks[index - 1].hash)
            }
            let txids = block.txids.compactMap { Hash256(displayHex: $0) }
            #expect(MerkleRoot.compute(txids).displayHex == block.merkleRoot)
            #expect(block.header.bitsHex == "207fffff")
            // Regtest's target is 0x7fffff × 2^232: the top bit of the hash (as a number) is clear.
            #expect(block.header.hash.bytes.last.map { $0 < 0x80 } == true, "\(block.hash)")
            let coinbase = try #require(chain.transaction(block.txids[0]))
            #expect(coinbase.isCoinbase)
            if index > 0 {
                let push = Self.heightPush(index)
                #expect(Array(coinbase.raw.inputs[0].scriptSig.prefix(push.count)) == push, "height \(index)")
            }
        }
    }

    @Test("regtest addresses throughout: bcrt1, m/n and 2; mainnet text is refused and the reverse")
    func addressesAreRegtests() throws {
        let chain = Self.chain(seed: 11)
        let kinds = Set(chain.fundedAddresses.map(\.kind))
        #expect(kinds == [.p2wpkh, .p2tr, .p2pkh, .p2sh])
        for address in chain.fundedAddresses {
            #expect(throws: Never.self) { try BitcoinAddress(address.string, network: .regtest) }
            let first = address.string.first
            #expect(
                address.string.hasPrefix("bcrt1") || first == "m" || first == "n" || first == "2",
                "\(address.string)"
            )
            #expect(try SimAddressParser.decode(address.string, network: .regtest) == address)
            #expect(throws: SimAddressParser.Failure.wrongNetwork(.mainnet)) {
                try SimAddressParser.decode(address.string)
            }
        }
        #expect(throws: SimAddressParser.Failure.wrongNetwork(.regtest)) {
            try SimAddressParser.decode("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", network: .regtest)
        }
        #expect(throws: SimAddressParser.Failure.wrongNetwork(.regtest)) {
            try SimAddressParser.decode("1BoatSLRHtKNngkdXEeobR76b53LETtpyT", network: .regtest)
        }
    }

    @Test("coinbases are spent only after 100 blocks, the subsidy halves at 150, no coinbase pays more than it may")
    func coinbaseMaturityAndSubsidyAreCores() throws {
        var chain = Self.chain(seed: UInt64.random(in: 0...UInt64.max))
        _ = try chain.mine(count: 50)
        var coinbaseHeight: [String: Int] = [:]
        var spentCoinbase = 0
        for block in chain.blocks.dropFirst() {
            coinbaseHeight[block.txids[0]] = block.height
            var fees: Int64 = 0
            for txid in block.txids.dropFirst() {
                let tx = try #require(chain.transaction(txid))
                fees += tx.fee
                for input in tx.inputs {
                    guard let height = coinbaseHeight[input.prevout.txid] else { continue }
                    spentCoinbase += 1
                    #expect(block.height - height >= 100, "block \(block.height) spends the coinbase of \(height)")
                }
            }
            let coinbase = try #require(chain.transaction(block.txids[0]))
            let subsidy: Int64 = block.height < 150 ? 5_000_000_000 : 2_500_000_000
            let paid = coinbase.raw.outputs.reduce(Int64(0)) { $0 + $1.value }
            if block.height == 1 {
                #expect(paid <= subsidy)
            } else {
                #expect(paid == subsidy + fees, "block \(block.height)")
            }
        }
        #expect(spentCoinbase > 0, "some matured coinbase was spent, or the check checked nothing")
        #expect(chain.tip.height == 155)
        #expect(throws: ChainModel.Failure.invalidReorgDepth(155, maximum: 154)) { try chain.reorg(depth: 155) }
    }

    @Test("a reorg on regtest leaves a longer branch: Core switches only to more work, and ElectrumX polls the height")
    func reorgLeavesALongerBranch() throws {
        var chain = Self.chain(seed: 5)
        let before = chain.tip
        let replaced = try chain.reorg(depth: 1)
        #expect(replaced.map(\.height) == [before.height] && replaced.first?.oldHash == before.hash)
        #expect(chain.block(height: before.height)?.hash == replaced.first?.newHash)
        #expect(chain.tip.height == before.height + 1)
        #expect(chain.tip.previousBlockHash == replaced.first?.newHash)
    }

    @Test("--core-version: getnetworkinfo reports it; getindexinfo lists txospenderindex from 31.0")
    func coreVersionAndIndexes() async throws {
        try await Simnet.with(SimnetConfiguration(chain: ChainParameters(network: .regtest))) { simnet in
            let info = try await NodeHarness.result(simnet, "getnetworkinfo")
            #expect(info["version"]?.int == 310_000)
            #expect(info["subversion"] == .string("/Satoshi:31.0.0/"))
            let indexes = try await NodeHarness.result(simnet, "getindexinfo")
            let tip = await simnet.tip().height
            for name in ["txindex", "txospenderindex"] {
                #expect(indexes[name]?["synced"] == .bool(true))
                #expect(indexes[name]?["best_block_height"]?.int == tip)
            }
            let one = try await NodeHarness.result(simnet, "getindexinfo", #"["txindex"]"#)
            #expect(one["txospenderindex"] == nil && one["txindex"] != nil)
        }
        var old = SimnetConfiguration(chain: ChainParameters(network: .regtest))
        old.coreVersion = try #require(CoreVersion(text: "29.0"))
        try await Simnet.with(old) { simnet in
            #expect(try await NodeHarness.result(simnet, "getnetworkinfo")["version"]?.int == 290_000)
            let indexes = try await NodeHarness.result(simnet, "getindexinfo")
            #expect(indexes["txindex"] != nil && indexes["txospenderindex"] == nil)
        }
        #expect(CoreVersion(text: "32.0") == nil && CoreVersion(text: "21") == nil && CoreVersion(text: "x") == nil)
        #expect(CoreVersion(text: "31") == .newest && CoreVersion(text: "31.0.0") == .newest)
    }

    @Test("gettxspendingprevout finds confirmed spends with their block once the spender index is there (31.0)")
    func confirmedSpendsWithTheSpenderIndex() async throws {
        try await Simnet.with(SimnetConfiguration(chain: ChainParameters(seed: 3, network: .regtest))) { simnet in
            let chain = await simnet.chain()
            let spend = try #require(
                chain.blocks.last?.txids.dropFirst().compactMap { chain.transaction($0) }.first { !$0.inputs.isEmpty }
            )
            let prevout = spend.inputs[0].prevout
            let outputs = #"[{"txid":"\#(prevout.txid)","vout":\#(prevout.vout)}]"#
            let found = try await NodeHarness.result(simnet, "gettxspendingprevout", "[\(outputs)]")
            #expect(found[0]?["spendingtxid"] == .string(spend.txid))
            #expect(found[0]?["blockhash"] == .string(chain.tip.hash))
            let mempoolOnly = try await NodeHarness.result(
                simnet,
                "gettxspendingprevout",
                #"[\#(outputs), {"mempool_only": true}]"#
            )
            #expect(mempoolOnly[0]?["spendingtxid"] == nil)
        }
    }
}
