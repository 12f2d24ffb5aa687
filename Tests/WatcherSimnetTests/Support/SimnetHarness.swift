import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherSimnet

/// An HTTP answer as the tests see it.
struct HTTPAnswer: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The first value of header `name`.
    func header(_ name: String) -> String? { headers.first(name: name) }

    func json() throws -> JSONNode { try JSONNode.parse(body) }
}

/// Starts simnets on free loopback ports and talks to them over real HTTP with AsyncHTTPClient.
enum SimnetHarness {
    /// Runs `body` against a fresh simnet, shutting it down afterwards even when `body` throws.
    static func withSimnet<T>(
        _ configuration: SimnetConfiguration = SimnetConfiguration(seed: 42),
        _ body: (Simnet) async throws -> T
    ) async throws -> T {
        let simnet = try await Simnet.start(configuration)
        do {
            let result = try await body(simnet)
            await simnet.shutdown()
            return result
        } catch {
            await simnet.shutdown()
            throw error
        }
    }

    /// `GET base + path`.
    static func get(_ simnet: Simnet, _ path: String, timeout: TimeAmount = .seconds(20)) async throws -> HTTPAnswer {
        try await send(HTTPClientRequest(url: simnet.baseURL + path), timeout: timeout)
    }

    /// `POST base + path` with a JSON body.
    static func post(_ simnet: Simnet, _ path: String, json: String) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: simnet.baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: json))
        return try await send(request, timeout: .seconds(20))
    }

    static func send(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPAnswer {
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 64 << 20)
        return HTTPAnswer(
            status: Int(response.status.code),
            headers: response.headers,
            body: Array(body.readableBytesView)
        )
    }

    /// Loads a fixture file copied from `shared/fixtures` (see `Fixtures/SOURCES.md`).
    static func fixture(_ relativePath: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(relativePath)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    /// Waits until `condition` holds or the deadline passes, checking every 20 ms. The wait is on the
    /// condition, not on a guessed delay.
    static func waitUntil(
        timeout: Duration = .seconds(10),
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}
