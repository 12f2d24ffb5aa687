import AsyncHTTPClient
import BlockbookAdapter
import Foundation
import RawAddrAdapter
import WatcherCore
import WatcherHTTP
import WatcherSimnet
import WatcherTesting

/// The simnet's clock reading a Core ``ManualClock``: the scheduler and the simulated provider share one
/// simulated time, which moves only when the scheduler waits. Minutes of traffic run in a second, exactly.
struct BridgedClock: SimnetClock {
    let clock: ManualClock
    let origin: Double = 1_700_000_000

    func now() -> Double { origin + clock.now.offset.seconds }
}

/// A simnet plus one shared HTTP client, shut down together.
struct Harness {
    let simnet: Simnet
    let client: HTTPClient
    var http: HTTPTransport { HTTPTransport(client: client, userAgent: "watcher-tests") }

    static func with<T: Sendable>(
        _ configuration: SimnetConfiguration,
        _ body: (Harness) async throws -> T
    ) async throws -> T {
        try await Simnet.with(configuration) { simnet in
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            do {
                let result = try await body(Harness(simnet: simnet, client: client))
                try await client.shutdown()
                return result
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    func blockbook(_ id: String = "bb", timeout: Duration = .seconds(10)) -> BlockbookProvider {
        BlockbookProvider(id: id, baseURL: simnet.baseURL, http: http, options: HTTPOptions(timeout: timeout))
    }

    func rawaddr(_ id: String = "bci", timeout: Duration = .seconds(10)) -> RawAddrProvider {
        RawAddrProvider(id: id, baseURL: simnet.baseURL, http: http, options: HTTPOptions(timeout: timeout))
    }
}
