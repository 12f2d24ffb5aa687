import Foundation
import Testing
import WatcherTestSupport
import WatcherTesting

/// `watcher run --http`: a port in use is named with the flag, and an address beyond loopback is warned about.
@Suite(.timeLimit(.minutes(1)))
struct HTTPFlagTests {
    @Test func aPortInUseNamesTheFlagAndTheAddress() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try StoreGuardTests.config(dir)
        let socket = LoopbackSocket.listeningSocket()
        defer { close(socket.descriptor) }
        let result = try await WatcherProcess.run(["run", "--config", config, "--http", "127.0.0.1:\(socket.port)"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("--http 127.0.0.1:\(socket.port): the address is already in use"),
            "\(result.stderr)"
        )
        #expect(!result.stderr.contains("bind(descriptor"))
    }

    @Test func bindingBeyondLoopbackIsWarnedAbout() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try StoreGuardTests.config(dir)
        let running = try WatcherProcess(["run", "--config", config, "--http", "0.0.0.0:0"])
        try await running.waitForOutput("listens beyond this machine")
        try await running.waitForOutput("watcher started")
        running.signal(SIGTERM)
        #expect(try await running.wait(timeout: .seconds(10)).status == 0)
    }
}

/// A TCP socket listening on a free loopback port.
enum LoopbackSocket {
    static func listeningSocket() -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = bind(descriptor, $0, length) }
        }
        _ = listen(descriptor, 1)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
