import Synchronization
import Testing
import WatcherTesting

@testable import BitcoindAdapter

/// Core runs one `scantxoutset` at a time: the provider's own scans wait for each other.
@Suite struct BitcoindScanGateTests {
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func aSecondScanWaitsForTheFirst() async throws {
        let gate = BitcoindScanGate()
        let log = Log()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await gate.run {
                log.append("first start")
                for await _ in release { break }
                log.append("first end")
            }
        }
        try await eventually("the first scan started") { log.all.contains("first start") }
        let second = Task { try await gate.run { log.append("second") } }
        // The second has every chance to run meanwhile, and must not.
        for _ in 0..<1_000 { await Task.yield() }
        #expect(log.all == ["first start"])
        releasing.yield()
        try await first.value
        try await second.value
        #expect(log.all == ["first start", "first end", "second"])
    }
}
