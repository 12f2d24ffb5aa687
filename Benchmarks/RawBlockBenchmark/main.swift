import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherRules
import WatcherSimnet

// A bitcoind block scan's local work, per block: parse a raw block as `getblock <hash> 0` returns it (hex), build
// its transactions as the adapter does (BitcoindDecoder.rawBlock: txid, each output's address from its script), and
// match them against the followed addresses as the chain job does (AddressReducer.match over a Set).
//   1. mines one block of T transactions on the simnet's chain model (real serialization and txids);
//   2. follows F addresses: F − P random P2WPKH ones and P of the block's output addresses;
//   3. parses and matches R times, printing the median and the maximum.
// Run: swift run -c release watcher-rawblock-bench [txs] [followed] [runs]

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let txCount = arguments.first ?? 4_000
let followedCount = arguments.dropFirst().first ?? 100_000
let runs = arguments.dropFirst(2).first ?? 20
let paid = 20

var chain = ChainModel(
    parameters: ChainParameters(seed: 71, txsPerBlock: txCount, mempoolTxsPerBlock: 0, fundedAddressCount: 200)
)
let block = try chain.mine(count: 1)[0]
let raw = RawBlock(header: block.header, transactions: block.txids.compactMap { chain.transaction($0)?.raw })
let hex = Hex.encode(raw.serialized())
print(
    "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; block of \(raw.transactions.count) txs, "
        + "\(hex.count / 2) bytes"
)

var generator = SystemRandomNumberGenerator()
var followed = Set<String>()
let outputs = raw.transactions.flatMap(\.outputs).compactMap {
    BitcoinAddress(scriptPubKey: $0.scriptPubKey, network: .mainnet)?.string
}
for address in outputs.shuffled(using: &generator).prefix(paid) { followed.insert(address) }
while followed.count < followedCount {
    let script = [0x00, 0x14] + (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
    if let address = BitcoinAddress(scriptPubKey: script, network: .mainnet)?.string { followed.insert(address) }
}

let clock = ContinuousClock()
var times: [Duration] = []
var matched = 0
for _ in 0..<runs {
    let started = clock.now
    let parsed = try RawBlock(hex: hex)
    let hash = parsed.hash.displayHex
    let time = Date(timeIntervalSince1970: TimeInterval(parsed.header.time))
    let transactions = parsed.transactions.map { tx in
        ChainTransaction(
            txid: tx.txid.displayHex,
            blockHeight: block.height,
            blockHash: hash,
            time: time,
            feeSat: tx.isCoinbase ? 0 : nil,
            inputs: tx.inputs.map { _ in TxEndpoint(address: nil, valueSat: 0) },
            outputs: tx.outputs.map {
                TxEndpoint(
                    address: BitcoinAddress(scriptPubKey: $0.scriptPubKey, network: .mainnet)?.string,
                    valueSat: $0.value
                )
            }
        )
    }
    matched = AddressReducer.match(transactions, followed: followed).count
    times.append(clock.now - started)
}
times.sort()
print(
    "parse and match: median \(String(format: "%.1f", milliseconds(times[times.count / 2]))) ms, "
        + "max \(String(format: "%.1f", milliseconds(times.last ?? .zero))) ms over \(runs) runs; "
        + "\(followed.count) followed, \(matched) matched"
)
