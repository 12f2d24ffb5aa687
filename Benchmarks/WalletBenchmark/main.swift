import WatcherBitcoin

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Derives N receive addresses (P2WPKH, default 100,000) from one account key on one thread, and prints the
// rate by wall-clock time and by this thread's CPU time (the fair figure on a shared machine).
// Run: swift run -c release watcher-wallet-bench [count]

/// This thread's CPU time in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let count = CommandLine.arguments.dropFirst().first.flatMap { UInt32($0) } ?? 100_000
let account =
    "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"

do {
    let wallet = try WalletDescriptor(parsing: account, network: .mainnet)
    let clock = ContinuousClock()
    var checksum = 0
    let cpuStart = threadCPUSeconds()
    let elapsed = try clock.measure {
        for index in 0..<count {
            let derived = try wallet.address(.receive, index: index)
            checksum &+= Int(derived.scriptPubKey[2]) &+ derived.address.string.utf8.count
        }
    }
    let cpu = threadCPUSeconds() - cpuStart
    let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("derived \(count) wpkh receive addresses (\(wallet.receive)), checksum \(checksum)")
    print("wall: \(wall) s, \(Int(Double(count) / wall)) addresses/second")
    print("cpu:  \(cpu) s, \(Int(Double(count) / cpu)) addresses/second (one thread)")
    print("first: \(try wallet.address(.receive, index: 0))")
} catch {
    print("error: \(error)")
}
