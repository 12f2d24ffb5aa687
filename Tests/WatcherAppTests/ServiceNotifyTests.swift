import Foundation
import Testing
import WatcherTestSupport
import WatcherTesting

@testable import WatcherApp

/// `watcher run` under a `Type=notify` unit: it tells the socket of `NOTIFY_SOCKET` `READY=1` once its signal
/// handlers are installed and the store is open, `RELOADING=1` then `READY=1` around a reload, and `STOPPING=1` when
/// it shuts down. The socket stands in for systemd's.
@Suite struct ServiceNotifyTests {
    @Test func readyReloadingAndStoppingReachTheSocket() async throws {
        let dir = try TemporaryDirectory("notify")
        defer { dir.remove() }
        let config = try dir.write("watcher.json", StartupHangupTests.config)
        let socket = try NotifySocket(path: dir.file("notify"))
        let child = try ServiceProcess(
            [WatcherProcess.executable.path, "run", "--config", config],
            environment: ["NOTIFY_SOCKET": socket.path],
            outputPath: dir.file("run.log")
        )
        let started = try await socket.wait(for: "READY=1") { child.exitStatus == nil }
        #expect(started.last?.contains("STATUS=watching: 0 watches, 1 sinks") == true, "\(started)")
        // Ready means the store is open: its data directory's lock is held, with the daemon's pid in it.
        let lock = try String(contentsOfFile: dir.file("data/watcher.lock"), encoding: .utf8)
        #expect(lock.contains("\(child.pid)"))
        child.signal(SIGHUP)
        let reload = try await socket.wait(for: "READY=1") { child.exitStatus == nil }
        #expect(reload.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true, "\(reload)")
        child.signal(SIGTERM)
        _ = try await socket.wait(for: "STOPPING=1") { child.exitStatus == nil }
        #expect(try await child.wait() == 0, "\(child.output)")
    }

    /// An abstract socket (`@name`, as systemd may pass) is reached too; without `NOTIFY_SOCKET`, or with a value
    /// that names no socket, nothing is sent.
    @Test func abstractSocketAndNone() throws {
        let name = "@watcher-notify-test-\(UUID().uuidString)"
        let socket = try NotifySocket(path: name)
        #expect(ServiceNotifier(environment: ["NOTIFY_SOCKET": name]).send("READY=1"))
        #expect(socket.receive() == "READY=1")
        #expect(!ServiceNotifier(environment: [:]).send("READY=1"))
        #expect(!ServiceNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]).send("READY=1"))
    }
}
