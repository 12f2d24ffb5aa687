import AsyncHTTPClient
import BlockbookAdapter
import Foundation
import RawAddrAdapter
import WatcherCore
import WatcherHTTP
import WatcherSimnet
import WatcherTesting

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
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .untraced)
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
