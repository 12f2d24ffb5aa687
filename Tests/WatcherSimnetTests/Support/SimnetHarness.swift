import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherCore
import WatcherFixtures
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// An HTTP answer as the tests see it.
struct HTTPAnswer: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The first value of header `name`.
    func header(_ name: String) -> String? { headers.first(name: name) }

    func json() throws -> JSONValue { try JSONValue.parse(body) }
}

/// Talks to simnets (started with `Simnet.with` from WatcherTesting) over real HTTP with AsyncHTTPClient.
enum SimnetHarness {
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

    /// A recorded body of `Tests/ProviderTests/Fixtures` (see the `SOURCES.md` beside it), e.g. `blockbook/tx.json`.
    static func fixture(_ relativePath: String) throws -> [UInt8] { try RecordedFixture.bytes(relativePath) }
}
