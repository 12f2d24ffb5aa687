import Foundation
import WatcherCore

extension TimeSource {
    /// The wall clock as unix seconds: the simnet's rate limits, logs and price times count in these.
    var unixSeconds: Double { now().timeIntervalSince1970 }
}
