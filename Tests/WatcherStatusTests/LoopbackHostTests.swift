import Testing

@testable import WatcherStatus

/// What counts as this machine for the write guard: addresses parsed with `inet_pton` and exact names, never a
/// prefix or a suffix (issue 26: `127.0.0.1.attacker.example` passed as loopback).
struct LoopbackHostTests {
    @Test(arguments: [
        "127.0.0.1", "127.0.0.1:9110", "127.1.2.3", "127.255.255.254:80", "localhost", "LOCALHOST:9110", "[::1]",
        "[::1]:9110", "::1", "0:0:0:0:0:0:0:1", "[0:0::1]:80",
    ])
    func loopbackLiteralsAndLocalhost(_ host: String) {
        #expect(StatusServer.isLoopback(host), "\(host)")
    }

    @Test(arguments: [
        "127.0.0.1.attacker.example", "127.0.0.1.attacker.example:9110", "127.evil.com", "127.0.0.1.", "127.1",
        "localhost.evil.com", "evil.localhost", "evil.localhost:9110", "sub.localhost", "localhost.", "::2",
        "[::ffff:127.0.0.1]", "10.0.0.1", "0.0.0.0", "rebound.example:9110", "", "[::1", "[::1]x", "127.0.0.1:http",
        "128.0.0.1",
    ])
    func rebindingNamesAndOtherHosts(_ host: String) {
        #expect(!StatusServer.isLoopback(host), "\(host)")
    }

    @Test func theBoundAddressCountsExactly() {
        #expect(StatusServer.isLoopback("watcher.internal:9110", bound: "watcher.internal"))
        #expect(!StatusServer.isLoopback("watcher.internal.evil:9110", bound: "watcher.internal"))
        #expect(StatusServer.isLoopback("[::1]:9110", bound: "::1"))
    }

    @Test func bearerSchemeIsCaseInsensitive() {
        #expect(WriteGuard.bearer("Bearer abc") == "abc")
        #expect(WriteGuard.bearer("bearer abc") == "abc")
        #expect(WriteGuard.bearer("BEARER  abc ") == "abc")
        #expect(WriteGuard.bearer("Basic abc") == nil)
        #expect(WriteGuard.bearer("Bearer") == nil)
    }
}
