import Foundation
import Synchronization
import Testing
import WatcherCore

/// Serves canned answers by URL path (and query), so fixture bodies go through the whole adapter without a
/// network. Unknown paths answer 404 with an empty body. It records the URLs asked.
final class StubFetcher: HTTPFetching {
    struct Answer: Sendable {
        var status = 200
        var body: [UInt8]
        var headers: [(name: String, value: String)] = []
    }

    private let answers: [String: Answer]
    private let asked = Mutex<[String]>([])

    /// `answers` keyed by path with query (`/api/v2/tx/abc`, `/rawaddr/1abc?limit=50`) or by path alone.
    init(_ answers: [String: Answer]) {
        self.answers = answers
    }

    func fetch(_ request: HTTPRequestSpec) async throws -> HTTPResponseData {
        asked.withLock { $0.append(request.url) }
        let components = URLComponents(string: request.url)
        let path = components?.percentEncodedPath ?? request.url
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        guard let answer = answers[path + query] ?? answers[path] else {
            return HTTPResponseData(status: 404, headers: [], body: [])
        }
        return HTTPResponseData(status: answer.status, headers: answer.headers, body: answer.body)
    }

    /// The URLs requested so far.
    var urls: [String] { asked.withLock { $0 } }
}

/// The test bundle's copies of the shared fixtures (see each folder's SOURCES.md).
enum Fixture {
    static func bytes(_ name: String) throws -> [UInt8] {
        let root = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures")
        return Array(try Data(contentsOf: root.appendingPathComponent(name)))
    }

    static func answer(_ name: String, status: Int = 200, headers: [(name: String, value: String)] = []) throws
        -> StubFetcher.Answer
    {
        StubFetcher.Answer(status: status, body: try bytes(name), headers: headers)
    }

    /// A fixture's JSON with `edit` applied to its text, e.g. to make a confirmed transaction unconfirmed.
    static func edited(_ name: String, _ edit: (String) -> String) throws -> StubFetcher.Answer {
        StubFetcher.Answer(body: Array(edit(String(decoding: try bytes(name), as: UTF8.self)).utf8))
    }
}

extension StubFetcher.Answer {
    /// A plain-text answer.
    static func text(_ text: String, status: Int, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, body: Array(text.utf8), headers: headers)
    }
}
