import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import WatcherCore
import WatcherJSON
import WatcherTesting

@testable import WatcherStatus

/// The bounded event stream: a cap on clients (503 with `Retry-After` beyond it), one reader fanning each event out
/// to every client, resumption from `Last-Event-ID`, and slow clients dropped at their buffer's limit.
@Suite(.timeLimit(.minutes(2)))
struct EventStreamTests {
    /// Reads a stream until `done` says its text so far is enough.
    static func read(
        _ server: StatusHarness,
        lastEventID: UInt64? = nil,
        onOpen: @Sendable () -> Void = {},
        until done: @Sendable (String) -> Bool
    ) async throws -> String {
        var request = HTTPClientRequest(url: server.base + "/api/events/stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: "\(lastEventID)") }
        let response = try await server.client.execute(request, timeout: .seconds(60))
        var text = ""
        for try await chunk in response.body {
            if text.isEmpty { onOpen() }
            text += String(buffer: chunk)
            if done(text) { break }
        }
        return text
    }

    @Test func theClientPastTheCapGets503AndEveryClientGetsEachEventOnce() async throws {
        try await StatusHarness.with(streamClients: 3) { server in
            try await server.append(2)
            try await withThrowingTaskGroup(of: String.self) { group in
                let started = Counter()
                for _ in 0..<3 {
                    group.addTask {
                        try await Self.read(server, onOpen: { started.increment() }) { text in
                            text.contains("id: 5\n") && text.hasSuffix("\n\n")
                        }
                    }
                }
                try await eventually("three clients connected") { started.value == 3 }
                let refused = try await server.request("/api/events/stream")
                #expect(refused.status == 503 && refused.headers.first(name: "Retry-After") == "5", "\(refused)")
                #expect(refused.body.contains("serves 3 clients at once"))
                try await server.append(3, from: 2)
                for try await text in group {
                    let ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }
                    #expect(ids == ["id: 3", "id: 4", "id: 5"], "\(text)")
                }
            }
            // The clients left: a new one is served again.
            try await eventually("a client to be served after the others left") {
                let text = try? await Self.read(server, lastEventID: 4) { $0.contains("id: 5\n") }
                return text?.contains("id: 5\n") == true
            }
        }
    }

    @Test func aResumingClientCatchesUpFromTheLogThenFollows() async throws {
        try await StatusHarness.with { server in
            try await server.append(450)
            let text = try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { try await Self.read(server, lastEventID: 10) { $0.contains("id: 460\n") } }
                try await server.append(10, from: 450)
                return try await group.next() ?? ""
            }
            let ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
            #expect(ids == (11...460).map(String.init), "\(ids.prefix(5)) … \(ids.suffix(5))")
            // Each `data` is the same object as the event's entry in /api/events.
            let data = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: ") })
            let listed = try JSONValue.parse(try await server.request("/api/events?limit=1000").body)
            guard case .array(let entries) = listed else { throw TimedOut(what: "an array from /api/events") }
            let entry = try #require(entries.first { $0["seq"] == .number("11") })
            #expect(try JSONValue.parse(String(data.dropFirst(6))) == entry)
        }
    }

    @Test func aQueuePastItsLimitDropsItsClient() async {
        let queue = StreamQueue(limit: 10)
        #expect(queue.push(ByteBuffer(string: "12345")))
        #expect(queue.push(ByteBuffer(string: "12345")))
        #expect(!queue.push(ByteBuffer(string: "1")))
        #expect(queue.dropped)
        #expect(await queue.next() == nil)
        let open = StreamQueue(limit: 10)
        open.push(ByteBuffer(string: "abc"))
        open.close()
        #expect(await open.next()?.map { String(buffer: $0) } == ["abc"])
        #expect(await open.next() == nil)
    }
}

/// A count shared between tasks.
final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func increment() { count.withLock { $0 += 1 } }
}
