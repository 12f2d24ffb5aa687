import Foundation
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherRules
import WatcherStorage

#if canImport(Glibc)
    import Glibc
#endif

// Block-scan matching against wallets' script index, as the chain job does it (WalletBlockMatch: addresses decoded
// to scripts, one LMDB lookup per output and input, windows grown and the block matched again):
//   1. fills a store with W wallets of gap G per branch (W × 2G followed scripts), each window grown by the same
//      write transaction the engine uses (WalletCommit.grow), timing each;
//   2. matches a block of T transactions (2 inputs, 2 outputs each, random scripts, P of them paying wallet
//      addresses, one of them beyond its window but within reach of another) R times;
//   3. grows one wallet's receive window by 10,000 addresses in one write;
//   and prints wall times and /proc/self/status RssAnon.
// Run: swift run -c release watcher-wallet-scan-bench [wallets] [gap] [txs] [runs]

func rssAnon() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") } ?? "RssAnon: ?"
    return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ")
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let walletCount = arguments.first ?? 100
let gap = arguments.dropFirst().first ?? 5_000
let txCount = arguments.dropFirst(2).first ?? 4_000
let runs = arguments.dropFirst(3).first ?? 20
// BIP84's account key (bitcoin/bips bip-0084.mediawiki, as an xpub): wallet n is its child n.
let account =
    "xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V"

let directory = NSTemporaryDirectory() + "wallet-scan-bench-\(UUID().uuidString)"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
let store = try Store(path: directory)
let clock = ContinuousClock()
print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; RssAnon at start \(rssAnon())")

var book = WalletBook()
for n in 0..<walletCount {
    let descriptor = try WalletDescriptor(parsing: "wpkh(\(account)/\(n)/<0;1>/*)", network: .mainnet)
    book.wallets["w\(n)"] = WalletBook.Wallet(
        id: "w\(n)",
        descriptor: descriptor,
        gap: gap,
        thresholds: [1],
        reorgSafety: 6,
        from: nil,
        label: nil,
        strategy: .scan
    )
}

// 1. The windows, one write transaction per wallet.
var fillTimes: [Double] = []
let fillStart = clock.now
for id in book.wallets.keys.sorted() {
    guard let wallet = book.wallets[id] else { continue }
    let started = clock.now
    try await store.write { txn in
        var state = wallet.emptyState(chain: "btc")
        try WalletCommit.grow(&state, wallet: wallet, txn: txn)
        try txn.putWalletState(state)
    }
    fillTimes.append(milliseconds(clock.now - started))
}
let scripts = try store.read { try $0.walletScriptCount() }
print(
    "filled \(walletCount) wallets × \(2 * gap) addresses = \(scripts) scripts in "
        + String(format: "%.1f s", milliseconds(clock.now - fillStart) / 1000)
        + String(
            format: " (per wallet: median %.0f ms, max %.0f ms)",
            fillTimes.sorted()[fillTimes.count / 2],
            fillTimes.max() ?? 0
        )
        + "; RssAnon \(rssAnon())"
)

// 2. A block.
var rng = SplitMixRandom(seed: 7)
func randomAddress(_ rng: inout SplitMixRandom) -> String {
    switch rng.next(below: 4) {
    case 0: Bech32.segwitAddress(hrp: "bc", version: 0, program: rng.bytes(20))
    case 1: Bech32.segwitAddress(hrp: "bc", version: 1, program: rng.bytes(32))
    case 2: Base58.encodeCheck(version: 0x00, payload: rng.bytes(20))
    default: Base58.encodeCheck(version: 0x05, payload: rng.bytes(20))
    }
}
let paying = Set((0..<20).map { _ in rng.next(below: txCount) })
var block: [ChainTransaction] = []
var expected: [String] = []
for t in 0..<txCount {
    var outputs = [
        TxEndpoint(address: randomAddress(&rng), valueSat: 50_000),
        TxEndpoint(address: randomAddress(&rng), valueSat: 7_000),
    ]
    if paying.contains(t) {
        let wallet = book.wallets["w\(rng.next(below: walletCount))"]!
        let index = rng.next(below: min(gap, 20))
        outputs[0] = TxEndpoint(address: try wallet.address(.receive, index), valueSat: 50_000)
        expected.append("\(wallet.id)/receive/\(index)")
    }
    block.append(
        ChainTransaction(
            txid: String(format: "%064x", t),
            blockHeight: 900_000,
            blockHash: nil,
            time: nil,
            feeSat: 1_000,
            inputs: [
                TxEndpoint(address: randomAddress(&rng), valueSat: 40_000),
                TxEndpoint(address: randomAddress(&rng), valueSat: 18_000),
            ],
            outputs: outputs
        )
    )
}
let states = try store.read { try $0.walletStates(chain: "btc") }

/// Matches `block` `runs` times as the chain job does (from the stored windows each time) and prints the times.
@MainActor func measure(_ name: String, _ block: [ChainTransaction], paid: Int) throws {
    var times: [Double] = []
    var decoding: [Double] = []
    var summary = ""
    for run in 0..<runs {
        var scan = WalletBlockScan(
            wallets: Dictionary(
                uniqueKeysWithValues: states.compactMap { state in
                    book.wallets[state.wallet].map { (state.wallet, $0.matching(state)) }
                }
            )
        )
        let started = clock.now
        let txs = block.map(WalletBlockScan.matchable)
        let decoded = clock.now
        let found = try WalletBlockMatch.match(txs, &scan, chain: "btc", store: store, book: book)
        times.append(milliseconds(clock.now - started))
        decoding.append(milliseconds(decoded - started))
        if run == 0 {
            summary =
                "\(found.count) matches of \(paid) paid, \(scan.derived.count) scripts derived to grow windows; "
                + String(format: "first run %.1f ms", times[0])
        }
    }
    let sorted = times.sorted()
    print(
        "\(name): a \(block.count)-tx block (\(block.count * 4) inputs and outputs) against \(scripts) scripts, "
            + "\(runs) runs: "
            + String(
                format: "median %.1f ms, min %.1f ms, max %.1f ms",
                sorted[sorted.count / 2],
                sorted[0],
                sorted[sorted.count - 1]
            )
            + String(format: " (decoding addresses to scripts: median %.1f ms)", decoding.sorted()[decoding.count / 2])
            + "; \(summary); RssAnon \(rssAnon())"
    )
}

try measure("steady block", block, paid: expected.count)
// Two payments beyond the w0 receive window in the same block: at gap - 1 (its edge) and 2 × gap - 1, found only
// once the first grew the window by gap addresses: the block is matched again.
let w0 = book.wallets["w0"]!
var beyond = block
beyond[0].outputs[1] = TxEndpoint(address: try w0.address(.receive, gap - 1), valueSat: 1_000)
beyond[1].outputs[1] = TxEndpoint(address: try w0.address(.receive, 2 * gap - 1), valueSat: 2_000)
try measure("block growing a window by \(gap)", beyond, paid: expected.count + 2)

// 3. One window grown by 10,000 addresses in one write transaction.
let wide = book.wallets["w1"]!
let before = try store.read { try $0.walletState(chain: "btc", wallet: "w1") }!
let started = clock.now
try await store.write { txn in
    var state = before
    state.receive.lastUsed = (state.receive.derivedUpTo ?? 0) + 10_000 - gap
    try WalletCommit.grow(&state, wallet: wide, txn: txn)
    try txn.putWalletState(state)
}
let grown = try store.read { try $0.walletState(chain: "btc", wallet: "w1") }!
print(
    "grew one receive window from \(before.receive.derivedUpTo ?? -1) to \(grown.receive.derivedUpTo ?? -1) "
        + "(\((grown.receive.derivedUpTo ?? 0) - (before.receive.derivedUpTo ?? 0)) addresses) in one durable write: "
        + String(format: "%.0f ms", milliseconds(clock.now - started)) + "; RssAnon \(rssAnon())"
)
await store.close()
