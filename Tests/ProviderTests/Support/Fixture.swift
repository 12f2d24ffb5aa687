import Foundation
import Testing
import WatcherFixtures
import WatcherTesting

/// The recorded fixtures of `Fixtures/` (see each folder's SOURCES.md), read from the WatcherFixtures bundle.
enum Fixture {
    static func bytes(_ name: String) throws -> [UInt8] { try RecordedFixture.bytes(name) }

    static func answer(_ name: String, status: Int = 200, headers: [(name: String, value: String)] = []) throws
        -> FixtureServer.Answer
    {
        FixtureServer.Answer(status: status, body: try bytes(name), headers: headers)
    }

    /// A fixture's JSON with `edit` applied to its text, e.g. to make a confirmed transaction unconfirmed.
    static func edited(_ name: String, _ edit: (String) -> String) throws -> FixtureServer.Answer {
        FixtureServer.Answer(body: Array(edit(String(decoding: try bytes(name), as: UTF8.self)).utf8))
    }
}
