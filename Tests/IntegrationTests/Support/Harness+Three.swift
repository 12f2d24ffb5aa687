import AsyncHTTPClient
import Foundation
import WatcherSimnet
import WatcherTesting

extension Harness {
    /// Runs `body` with three simnets started alike (``WatchShapeTests/quiet``: the same seed, so the same control
    /// calls keep them byte-identical until a test gives one a call of its own), one HTTP client and a data directory
    /// for the watcher under test, removed when `body` returns or throws. The `agree` tests' stand-in for three
    /// providers, honest or not.
    static func withThree(_ body: ([Simnet], HTTPClient, String) async throws -> Void) async throws {
        try await Simnet.with(EngineHarness.quiet) { first in
            try await Simnet.with(EngineHarness.quiet) { second in
                try await withData(EngineHarness.quiet) { third, client, data in
                    try await body([first, second, third], client, data)
                }
            }
        }
    }

    /// The `providers` entries of a config: a `blockbook` provider `ids[i]` on `simnets[i]`, with a rate limit no
    /// test reaches.
    static func blockbookProviders(_ ids: [String], _ simnets: [Simnet], websocket: Bool = true) -> String {
        zip(ids, simnets).map { id, simnet in
            """
            {"id": "\(id)", "type": "blockbook",
             "options": {"url": "\(simnet.baseURL)", "timeout": "2s", "websocket": \(websocket)},
             "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}
            """
        }.joined(separator: ",")
    }
}
