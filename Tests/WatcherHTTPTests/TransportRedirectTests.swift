import HTTPTypes
import Testing
import WatcherCore
import WatcherHTTP
import WatcherTestSupport

/// The shared transport follows redirects per request: provider reads do (up to 3 hops), deliveries do not.
@Suite("Transport redirects", .timeLimit(.minutes(1)))
struct TransportRedirectTests {
    @Test func readsFollowUpToThreeHopsAndDeliveriesNone() async throws {
        try await withTransport { http in
            try await withReceivers([{ _, _ in .ok }, { _, _ in .ok }]) { receivers in
                let (origin, target) = (receivers[0], receivers[1])
                origin.answer { request, _ in
                    switch request.path {
                    case "/loop": Reply(status: 302, location: "/loop")
                    default: Reply(status: 302, location: target.url)
                    }
                }
                let base = try #require(origin.port.map { "http://127.0.0.1:\($0)" })

                let read = try await http.fetch(HTTPRequestSpec(url: base + "/start"))
                #expect(read.status == 200 && target.log.count == 1)

                let post = HTTPRequestSpec(method: .post, url: base + "/start", body: [1], followRedirects: false)
                let delivered = try await http.fetch(post)
                #expect(delivered.status == 302 && delivered.headerFields[.location] == target.url)
                #expect(target.log.count == 1, "a delivery followed the redirect")

                let looping = try await http.fetch(HTTPRequestSpec(url: base + "/loop"))
                #expect(looping.status == 302)
                #expect(origin.log.filter { $0.request.path == "/loop" }.count == 4)
            }
        }
    }
}
