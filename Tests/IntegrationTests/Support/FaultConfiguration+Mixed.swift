import WatcherSimnet

extension FaultConfiguration {
    /// Three requests in ten fail, each in one of the ways a provider's answer goes wrong at once (a 5xx, a request
    /// held past every client's budget, a body that is not JSON, cut in half or of the wrong shape).
    static let thirtyPercentMixed = FaultConfiguration(
        rate: 0.3,
        kinds: [.serverError, .timeout, .malformed, .truncated, .wrongShape],
        timeout: .seconds(2)
    )
}
