import AsyncHTTPClient
import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// What the Electrum suites share: a simnet with its Electrum face, and the histories its server answered.
enum ElectrumHarness {
    /// A quiet simnet (only the tests' payments move followed addresses) with the Electrum face on.
    static func simnet(_ personality: ElectrumSettings.Personality) -> SimnetConfiguration {
        var configuration = EngineHarness.quiet
        configuration.electrumPort = 0
        configuration.electrum = ElectrumSettings(personality: personality)
        return configuration
    }

    /// The Electrum face's requests so far, by method.
    static func histories(_ simnet: Simnet) async -> [String: Int] {
        await simnet.stats().families[.electrum]?.endpoints ?? [:]
    }
}
