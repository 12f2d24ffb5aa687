import WatcherBitcoin
import WatcherCore

/// The simulated Bitcoin chain: blocks, transactions, mempool and per-address indexes.
///
/// A pure value type with a seeded generator; it does no I/O and reads no clock, so equal
/// ``ChainParameters`` and an equal sequence of operations always give an equal chain.
/// Mutations live in `ChainModel+Mining.swift`, `ChainModel+Mempool.swift` and `ChainModel+Reorg.swift`;
/// read access in `ChainModel+Queries.swift`.
public struct ChainModel: Sendable {
    /// Where a confirmed transaction sits: its block height and position in the block.
    public struct TxLocation: Sendable, Hashable, Comparable {
        /// The block height.
        public let height: Int
        /// The index within the block (0 = coinbase).
        public let index: Int

        /// Creates a location.
        public init(height: Int, index: Int) {
            self.height = height
            self.index = index
        }

        public static func < (lhs: TxLocation, rhs: TxLocation) -> Bool {
            (lhs.height, lhs.index) < (rhs.height, rhs.index)
        }
    }

    /// Who spends an output.
    public struct SpendRef: Sendable, Hashable {
        /// The spending transaction.
        public let txid: String
        /// The index of the spending input within it.
        public let input: Int
    }

    /// Errors from chain operations.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The amount is zero, negative or above the 21 million BTC supply.
        case invalidAmount(Int64)
        /// The funded addresses do not hold enough confirmed coins.
        case insufficientFunds(needed: Int64, available: Int64)
        /// The address spent from does not hold enough unspent coins.
        case insufficientFundsAt(String, needed: Int64, available: Int64)
        /// The reorg depth is below 1 or would replace the funding block.
        case invalidReorgDepth(Int, maximum: Int)
        /// The block count is below 1 or too large for one call.
        case invalidCount(Int)
        /// The txid is not waiting in the mempool (unknown, confirmed, or gone).
        case notInMempool(String)

        public var description: String {
            switch self {
            case .invalidAmount(let amount): "invalid amount \(amount) sat"
            case .insufficientFunds(let needed, let available):
                "insufficient funds: need \(needed) sat, funded addresses hold \(available) sat confirmed"
            case .insufficientFundsAt(let address, let needed, let available):
                "insufficient funds: need \(needed) sat, \(address) holds \(available) sat unspent"
            case .invalidReorgDepth(let depth, let maximum): "invalid reorg depth \(depth) (1...\(maximum))"
            case .invalidCount(let count): "invalid block count \(count) (1...1000)"
            case .notInMempool(let txid): "transaction \(txid) is not in the mempool"
            }
        }
    }

    /// The parameters the chain was built with.
    public let parameters: ChainParameters

    var rng: SplitMixRandom
    /// The main chain, index 0 at `parameters.startHeight` (regtest: the genesis block at height 0).
    public internal(set) var blocks: [SimBlock] = []
    var heightByHash: [String: Int] = [:]
    /// Every known transaction, confirmed or in the mempool.
    var transactions: [String: SimTransaction] = [:]
    var confirmedAt: [String: TxLocation] = [:]
    /// Mempool txids in arrival order (parents before children).
    public internal(set) var mempool: [String] = [] {
        didSet { mempoolSequence += 1 }
    }
    /// A counter that moves on every change of the mempool (Core's `mempool_sequence`).
    public internal(set) var mempoolSequence: Int64 = 0
    /// Every address that appears anywhere, with its script type.
    var book: [String: SimAddress] = [:]
    /// The funded wallet addresses.
    public internal(set) var fundedAddresses: [SimAddress] = []
    var funded: Set<String> = []
    /// Addresses reported by ``truths()``: funded ones, then those paid through ``pay(to:amountSat:)``.
    var trackedAddresses: [String] = []
    var spentBy: [SimOutpoint: SpendRef] = [:]
    /// Blocks a reorg took off the main chain, by hash, with their transactions (Core still serves them, with
    /// `confirmations: -1`).
    var staleBlocks: [String: StaleBlock] = [:]
    var spendable = SpendablePool()
    /// Coinbase outputs of funded addresses still maturing, by the height of their block (regtest: 100 blocks).
    var immatureCoinbase: [Int: [SimOutpoint]] = [:]
    var ledger = AddressLedger()

    /// Builds the chain's first `initialBlocks` blocks.
    public init(parameters: ChainParameters) {
        self.parameters = parameters
        self.rng = SplitMixRandom(seed: parameters.seed)
        let kinds: [SimAddress.Kind] = [.p2wpkh, .p2tr, .p2pkh, .p2sh]
        for index in 0..<parameters.fundedAddressCount {
            let address = SimAddress.random(kinds[index % kinds.count], network: parameters.network, using: &rng)
            fundedAddresses.append(address)
            funded.insert(address.string)
            book[address.string] = address
            trackedAddresses.append(address.string)
        }
        if parameters.network == .regtest {
            appendGenesis()
            mineFundingBlock()
            // The funding coinbase matures: blocks up to height 100, empty but for their coinbase.
            for _ in 1..<parameters.network.coinbaseMaturity { mineBlock() }
        } else {
            mineFundingBlock()
        }
        for _ in 1..<parameters.initialBlocks {
            mineBlock()
        }
    }

    /// The best block.
    public var tip: SimBlock {
        blocks[blocks.count - 1]
    }

    /// Serializes transactions with this chain's address book.
    var serializer: TxSerializer {
        let book = self.book
        return TxSerializer { book[$0] }
    }

    /// 32 random bytes as hex (the parent hash of the first block).
    mutating func nextHash() -> String {
        Hex.encode(rng.bytes(32))
    }

    /// The compact target of every block: regtest's, so any nonce of two tries on average will do.
    static let bits: UInt32 = 0x207f_ffff

    /// Bitcoin Core's difficulty for ``bits``, as it prints the number.
    static let difficultyText = "4.656542373906925e-10"

    /// ``bits`` expanded to the 256-bit target, most significant byte first.
    static let target: [UInt8] = {
        let exponent = Int(bits >> 24)
        let mantissa = [UInt8(bits >> 16 & 0xff), UInt8(bits >> 8 & 0xff), UInt8(bits & 0xff)]
        var target = [UInt8](repeating: 0, count: 32)
        for (offset, byte) in mantissa.enumerated() where 32 - exponent + offset >= 0 {
            target[32 - exponent + offset] = byte
        }
        return target
    }()

    /// `true` if the block hash, read as a 256-bit number, is at most ``target``.
    static func meetsTarget(_ hash: Hash256) -> Bool {
        let value = Array(hash.bytes.reversed())
        for (byte, limit) in zip(value, target) where byte != limit { return byte < limit }
        return true
    }

    /// The work of one block at ``bits``: 2^256 / (target + 1), which is 2 at regtest's target.
    static let workPerBlock = 2

    /// A value for blockchain.info's `tx_index` (below 2^53, like the real ones).
    mutating func nextTxIndex() -> Int64 {
        rng.next(in: Int64(1) << 40...(Int64(1) << 53) - 1)
    }

    /// The block subsidy at `height` on this chain's network (50 BTC halving every 210,000 blocks, 150 on regtest).
    func subsidy(at height: Int) -> Int64 {
        parameters.network.subsidy(at: height)
    }
}
