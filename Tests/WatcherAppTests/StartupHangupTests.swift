import Foundation
import Testing
import WatcherTestSupport
import WatcherTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A SIGHUP (a reload) that reaches `watcher run` while it starts never ends it (issue 33, item 14: it died with
/// exit 129 when the signal came before the config was loaded). Started as systemd starts a service (SIGHUP at its
/// default action), each child is sent SIGHUP the moment it runs its own code, 50 times; each must start and stop
/// with exit 0. Not sooner: before the program's first statement (while the dynamic loader maps the Swift libraries)
/// no program can catch a signal, and under `Type=notify` systemd only reloads a started unit.
@Suite struct StartupHangupTests {
    static let config = """
        {"storage": {"path": "./data"},
         "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
         "watches": [],
         "sinks": [{"id": "out", "type": "stdout"}]}
        """

    @Test func aHangupAtStartNeverEndsTheDaemon() async throws {
        let dir = try TemporaryDirectory("hangup")
        defer { dir.remove() }
        let config = try dir.write("watcher.json", Self.config)
        var failures: [String] = []
        for round in 0..<50 {
            let child = try ServiceProcess(
                [WatcherProcess.executable.path, "run", "--config", config],
                outputPath: dir.file("run-\(round).log")
            )
            await Self.hangUpOnceRunning(child.pid)
            let started = (try? await child.waitForOutput("watcher started")) != nil
            child.signal(SIGTERM)
            let status = try await child.wait()
            if !started || status != 0 { failures.append("round \(round): exit \(status): \(child.output)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of 50 did not start and stop cleanly: \(failures.first ?? "")")
    }

    /// Sends SIGHUP to `pid` as soon as it has a second thread: the Swift program's first `await` makes one, so
    /// its first statement has run. The wait spins on a thread of its own, not a concurrency thread.
    static func hangUpOnceRunning(_ pid: pid_t) async {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < deadline, let count = threads(pid) {
                    if count >= 2 {
                        kill(pid, SIGHUP)
                        break
                    }
                }
                continuation.resume()
            }
        }
    }

    /// The number of threads of `pid` (`Threads:` in /proc/PID/status); `nil` once it has ended.
    static func threads(_ pid: pid_t) -> Int? {
        let descriptor = open("/proc/\(pid)/status", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n")
        if lines.contains(where: { $0.hasPrefix("State:") && $0.contains("Z") }) { return nil }
        guard let line = lines.first(where: { $0.hasPrefix("Threads:") }) else { return nil }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    }
}
