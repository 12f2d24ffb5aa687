import WatcherCore

/// The simnet's seeded generator: WatcherCore's ``SplitMixRandom`` (SplitMix64), under the name the simnet's
/// API has always used.
public typealias SeededGenerator = SplitMixRandom
