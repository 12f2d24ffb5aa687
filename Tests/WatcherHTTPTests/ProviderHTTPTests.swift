import Foundation
import HTTPTypes
import Testing
import WatcherCore
import WatcherHTTP
import WatcherTesting

/// The one shared mapping from transport failures and generic statuses to ``ProviderError``, and the exact
/// JSON readers every adapter decodes with.
@Suite("ProviderHTTP")
struct ProviderHTTPTests {
    /// A fetcher that throws `error`: the one test double here, for the mapping in `ProviderHTTP.get(url:)` of
    /// each error a fetcher may throw (including ones the real transport never throws, like `Oops`). Requests that
    /// reach a server go over loopback with the real transport below.
    struct Failing: HTTPFetching {
        let error: any Error
        func fetch(_ request: HTTPRequestSpec) async throws -> HTTPResponseData { throw error }
    }

    struct Oops: Error {}

    func client(_ error: any Error) -> ProviderHTTP {
        ProviderHTTP(provider: "p", baseURL: "https://x.example//", http: Failing(error: error), options: .standard)
    }

    @Test func fetchFailuresMapToTypedErrors() async throws {
        await #expect(throws: ProviderError.timeout(provider: "p", after: .seconds(3))) {
            _ = try await client(HTTPFetchError.timeout(.seconds(3))).get("/a")
        }
        await #expect(
            throws: ProviderError.invalidResponse(provider: "p", detail: "response body larger than the 1024-byte cap")
        ) {
            _ = try await client(HTTPFetchError.tooLarge(limit: 1024)).get("/a")
        }
        await #expect(throws: ProviderError.transport(provider: "p", detail: "refused")) {
            _ = try await client(HTTPFetchError.transport("refused")).get("/a")
        }
        await #expect(throws: ProviderError.transport(provider: "p", detail: "Oops()")) {
            _ = try await client(Oops()).get("/a")
        }
        await #expect(throws: CancellationError.self) { _ = try await client(CancellationError()).get("/a") }
    }

    @Test func realTransportFailuresMapToTypedErrors() async throws {
        let big = FixtureServer.Answer(body: Array(repeating: UInt8(ascii: "x"), count: 4096))
        try await FixtureServer.with(["/big": big]) { server in
            let http = ProviderHTTP(
                provider: "p",
                baseURL: server.baseURL,
                http: server.http,
                options: HTTPOptions(maxBodyBytes: 1024)
            )
            await #expect(
                throws: ProviderError.invalidResponse(
                    provider: "p",
                    detail: "response body larger than the 1024-byte cap"
                )
            ) {
                _ = try await http.get("/big")
            }
        }
    }

    @Test func requestsCarryTheOptionsAndEscapedInput() async throws {
        try await FixtureServer.with([:]) { server in
            let options = HTTPOptions(headerFields: [HTTPField.Name("api-key")!: "s3cret"])
            let http = ProviderHTTP(provider: "p", baseURL: server.baseURL + "/", http: server.http, options: options)
            let response = try await http.get("/rawaddr/\(ProviderHTTP.escape("a/b?c"))", query: [("active", "a|b")])
            #expect(response.status == 404)
            #expect(server.urls == ["\(server.baseURL)/rawaddr/a%2Fb%3Fc?active=a%7Cb"])
            #expect(server.requests.first?.headers["api-key"] == "s3cret")
            #expect(server.requests.first?.headers["user-agent"] == FixtureServer.userAgent)
        }
    }

    @Test func genericStatuses() throws {
        let http = client(Oops())
        // The wall clock Retry-After dates are read against, frozen at 2023-11-14 22:13:20 UTC.
        let frozen = ProviderHTTP(
            provider: "p",
            baseURL: "http://p",
            http: Failing(error: Oops()),
            options: .standard,
            time: ManualClock().timeSource(epoch: Date(timeIntervalSince1970: 1_700_000_000))
        )
        #expect(throws: ProviderError.rateLimited(provider: "p", retryAfter: .seconds(60))) {
            try frozen.checkStatus(
                HTTPResponseData(status: 429, headerFields: [.retryAfter: "Tue, 14 Nov 2023 22:14:20 GMT"], body: [])
            )
        }
        #expect(
            throws: ProviderError.unavailable(provider: "p", status: 503, detail: "503 Service Temporarily Unavailable")
        ) {
            let page = "<html><head><title>503 Service Temporarily Unavailable</title></head><body>nginx</body></html>"
            try http.checkStatus(HTTPResponseData(status: 503, body: Array(page.utf8)))
        }
        try http.checkStatus(HTTPResponseData(status: 404, body: []))
    }

    @Test func malformedBodiesAreInvalidResponses() {
        #expect(throws: ProviderError.self) { _ = try ProviderHTTP.json(Array(#"{"a":1"#.utf8), provider: "p") }
        #expect(throws: ProviderError.self) { _ = try ProviderHTTP.json([], provider: "p") }
    }

    @Test func exactNumbers() throws {
        let root = try ProviderHTTP.json(
            Array(
                #"{"sat":"9223372036854775807","n":-8525568094,"p":42970.9319,"s":"0.1","e":1.0e8,"x":"12abc"}"#.utf8
            ),
            provider: "p"
        )
        #expect(try root.required("sat").int64() == Int64.max)
        #expect(try root.required("n").int64() == -8_525_568_094)
        #expect(try root.required("p").decimal() == Decimal(429_709_319) / 10_000)
        #expect(try root.required("s").decimal() == Decimal(1) / 10)
        #expect(try root.required("e").decimal() == 100_000_000)
        #expect(throws: ProviderError.invalidResponse(provider: "p", detail: "expected an integer at e, got \"1.0e8\""))
        {
            _ = try root.required("e").int64()
        }
        #expect(throws: ProviderError.self) { _ = try root.required("x").decimal() }
        #expect(throws: ProviderError.invalidResponse(provider: "p", detail: "missing \"q\" at the top level")) {
            _ = try root.required("q")
        }
        let nested = try ProviderHTTP.json(Array(#"{"txs":[{"v":true}]}"#.utf8), provider: "p")
        #expect(
            throws: ProviderError.invalidResponse(provider: "p", detail: "expected a string at txs[0].v, got a boolean")
        ) {
            _ = try nested.required("txs").array()[0].required("v").string()
        }
    }

    @Test func times() throws {
        let root = try ProviderHTTP.json(
            Array(
                #"{"a":"2024-09-10T08:19:04.471017534Z","b":"2021-09-30T11:48:00+00:00","c":1549071865,"d":1549071865000}"#
                    .utf8
            ),
            provider: "p"
        )
        #expect(try root.required("a").date() == Date(timeIntervalSince1970: 1_725_956_344))
        #expect(try root.required("b").date() == Date(timeIntervalSince1970: 1_633_002_480))
        #expect(try root.required("c").date() == Date(timeIntervalSince1970: 1_549_071_865))
        #expect(try root.required("d").date() == Date(timeIntervalSince1970: 1_549_071_865))
    }
}
