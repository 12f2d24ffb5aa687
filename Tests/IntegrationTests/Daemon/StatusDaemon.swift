import AsyncHTTPClient
import Foundation
import WatcherHTTP
import WatcherSimnet
import WatcherTesting

/// A `watcher run --http HOST:0` process: its status server binds a free port itself and the test reads the address
/// from the daemon's log ("status server listening"), so no port picked beforehand can be taken by a parallel test
/// in between. Stderr goes to `<data>/daemon.log`, which errors quote.
struct StatusDaemon {
    let child: ChildProcess
    /// `http://127.0.0.1:PORT` (also when the server binds a wider address).
    let base: String
    /// The daemon's stderr.
    let log: String

    struct Exited: Error, CustomStringConvertible {
        let status: Int32
        let log: String
        var description: String { "the daemon exited (\(status)) before it served HTTP; its log ends:\n\(log)" }
    }

    /// Starts `watcher run --config <config> --http <bind>:0 <arguments>` and waits for its status server.
    static func start(config: String, data: String, bind: String = "127.0.0.1", arguments: [String] = [])
        async throws -> StatusDaemon
    {
        let log = "\(data)/daemon.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let child = try ChildProcess(
            WatcherProcess.executable.path,
            arguments: ["run", "--config", config, "--http", "\(bind):0"] + arguments,
            error: .file(log)
        )
        let port: Int
        do {
            port = try await eventuallyValue("the status server's address in \(log)") { () throws -> Int? in
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let port = listeningPort(in: text) { return port }
                if !child.isRunning {
                    throw Exited(status: child.terminationStatus, log: String(text.suffix(2_000)))
                }
                return nil
            }
        } catch {
            child.signal(SIGKILL)
            throw error
        }
        return StatusDaemon(child: child, base: "http://127.0.0.1:\(port)", log: log)
    }

    /// The port of the daemon's line `address=http://HOST:PORT/ … status server listening`, once it is logged.
    static func listeningPort(in log: String) -> Int? {
        for line in log.split(separator: "\n") where line.contains("status server listening") {
            guard let url = line.range(of: #"address=http://[^ ]+:[0-9]+/"#, options: .regularExpression) else {
                continue
            }
            return Int(line[url].dropLast().split(separator: ":").last ?? "")
        }
        return nil
    }

    /// Runs `body` with an HTTP client while the daemon runs, then stops the daemon gracefully (SIGTERM), waits for it
    /// and returns its exit status. When `body` throws, the daemon is SIGKILLed and the error rethrown. The client is
    /// shut down either way.
    func whileRunning(_ body: (HTTPClient) async throws -> Void) async throws -> Int32 {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .untraced)
        do {
            try await body(client)
        } catch {
            child.signal(SIGKILL)
            try? await client.shutdown()
            throw error
        }
        let status = try await WatcherProcess.stop(child)
        try await client.shutdown()
        return status
    }
}

extension Simnet {
    /// Starts a simnet again on the port of one that was shut down. A daemon that keeps dialling the closed port can
    /// be given that very port as its own local one (a TCP self-connect) and hold it for a moment, so binding is
    /// retried until it succeeds or 30 s pass.
    static func restart(_ configuration: SimnetConfiguration) async throws -> Simnet {
        try await eventuallyValue(timeout: .seconds(60), "port \(configuration.port) to be free again") {
            try? await Simnet.start(configuration)
        }
    }
}
