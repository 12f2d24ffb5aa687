import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherEventLog
import WatcherJSON
import WatcherRequests
import WatcherRules
import WatcherStorage

// Payment requests at scale, as the daemon's RequestJob settles them (docs/benchmarks.md, "Payment requests"):
//   1. creates N requests on one wallet through RequestDesk (each a fresh receive address, its window grown, the
//      request and its request.created event in one write transaction), timing the creates;
//   2. runs the job's first round (every request read and reduced once);
//   3. then, R times: a block confirms P of the requests' payments (their address states and address.tx.confirmed
//      events written as the wallet job writes them, and the tip moved), and one job round settles them: the
//      round's wall time is what is measured (target: at most 50 ms with 10,000 open requests);
//   4. counts provider requests: none (the job has no provider; it reads the store only).
// Run: swift run -c release watcher-request-bench [requests] [paid per block] [blocks]

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let requestCount = arguments.first ?? 10_000
let paidPerBlock = arguments.dropFirst().first ?? 100
let blocks = arguments.dropFirst(2).first ?? 10
let directory = NSTemporaryDirectory() + "request-bench-\(UUID().uuidString)"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
let store = try Store(path: directory, options: EnvironmentOptions(mapSize: 4 << 30))
let log = EventLog(store: store)
let clock = ContinuousClock()
let start = Date(timeIntervalSince1970: 1_800_000_000)
print(
    "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; \(requestCount) requests, \(paidPerBlock) paid per block, \(blocks) blocks"
)

let descriptor = try WalletDescriptor(
    parsing:
        "wpkh(xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)",
    network: .mainnet
)
let wallet = FollowedWallet(
    id: "shop",
    descriptor: descriptor,
    gap: 20,
    thresholds: [1],
    reorgSafety: 6,
    from: nil,
    label: nil,
    strategy: .scan
)
var terms = RequestTerms()
terms.expiresSeconds = 86_400
// The default gap advice (20): every create reads the newest 21 handed-out addresses.
try await store.write { try $0.setTip(chain: "btc", BlockRef(height: 900_000, hash: "h900000")) }

// 1. Creates.
var createTimes: [Double] = []
var requests: [PaymentRequest] = []
for n in 0..<requestCount {
    let started = clock.now
    let created = try await RequestDesk.create(
        RequestOrder(wallet: "shop", amount: .sat(10_000 + Int64(n)), orderId: "order-\(n)"),
        wallet: wallet,
        terms: terms,
        chain: "btc",
        log: log,
        builder: EventBuilder(now: { start }),
        now: start
    )
    createTimes.append(milliseconds(clock.now - started))
    requests.append(created.request)
}
print(
    String(
        format: "create: median %.2f ms, max %.2f ms, total %.1f s",
        median(createTimes),
        createTimes.max() ?? 0,
        createTimes.reduce(0, +) / 1000
    )
)

// 2. The first round reads every request.
let now = start.addingTimeInterval(60)
let job = RequestJob(chain: "btc", log: log, builder: EventBuilder(now: { now }), now: { now })
let firstStarted = clock.now
try await job.round()
print(String(format: "first round (every request read once): %.1f ms", milliseconds(clock.now - firstStarted)))
let idle = clock.now
try await job.round()
print(String(format: "a round with nothing new: %.3f ms", milliseconds(clock.now - idle)))

// 3. Blocks that each pay and confirm `paidPerBlock` requests.
var roundTimes: [Double] = []
var settled = 0
for block in 0..<blocks {
    let height = 900_001 + block
    let paid = requests[(block * paidPerBlock)..<min(requests.count, (block + 1) * paidPerBlock)]
    try await store.write { txn in
        for request in paid {
            var state = AddressState(chain: "btc", address: request.address)
            let txid = String(format: "%064x", height * 100_000 + request.index)
            state.txs[txid] = AddressState.TrackedTx(
                txid: txid,
                blockHeight: height,
                blockHash: "h\(height)",
                deltaSat: request.dueSat
            )
            try txn.putAddressState(state)
            let event = EventBuilder(now: { now }).make(
                type: "address.tx.confirmed",
                fact: [request.address, txid, "h\(height)"],
                source: "shop",
                subject: request.address,
                data: [.init("address", .string(request.address)), .init("txid", .string(txid))]
            )
            _ = try txn.appendEvent(id: event.id, type: event.type, body: event.body)
        }
        try txn.setTip(chain: "btc", BlockRef(height: height, hash: "h\(height)"))
    }
    let started = clock.now
    try await job.round()
    roundTimes.append(milliseconds(clock.now - started))
    settled = try store.read { try $0.requests(chain: "btc") }.filter { $0.status == .settled }.count
}
print(
    String(
        format: "a block settling %d of %d open requests: median %.1f ms, max %.1f ms over %d blocks",
        paidPerBlock,
        requestCount,
        median(roundTimes),
        roundTimes.max() ?? 0,
        blocks
    )
)
print("settled after \(blocks) blocks: \(settled) (expected \(min(requestCount, blocks * paidPerBlock)))")
print("provider requests made by the request job: 0 (it has no provider: it reads the store)")

// 5. Where a round's time goes, per request: the pure reduction (with its two events built), and the stored
//    request's JSON decode and encode.
let sample = requests[requests.count - 1]
let confirmed = AddressState.TrackedTx(
    txid: String(repeating: "a", count: 64),
    blockHeight: 900_001,
    blockHash: "h",
    deltaSat: sample.dueSat
)
let reduceStarted = clock.now
for _ in 0..<1_000 {
    _ = RequestReducer.reduce(
        sample,
        facts: .init(tipHeight: 900_001, txs: [confirmed]),
        now: now,
        events: EventBuilder(now: { now })
    )
}
let reduceEach = milliseconds(clock.now - reduceStarted)
let encoded = try JSONEncoder().encode(sample)
let codingStarted = clock.now
for _ in 0..<1_000 { _ = try JSONDecoder().decode(PaymentRequest.self, from: try JSONEncoder().encode(sample)) }
let codingEach = milliseconds(clock.now - codingStarted)
print(
    String(
        format: "per request: reduce with its events %.1f µs, JSON encode + decode %.1f µs (%d bytes)",
        reduceEach,
        codingEach,
        encoded.count
    )
)
