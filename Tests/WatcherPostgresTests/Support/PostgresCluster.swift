import Foundation
import Glibc
import WatcherTestSupport

/// A throwaway PostgreSQL cluster: `initdb` into a temporary directory, `pg_ctl start` on a free loopback port,
/// `pg_ctl stop` and removal afterwards. As root it runs the server as the `postgres` user (`runuser`).
///
/// The superuser `postgres` authenticates with SCRAM over TCP (the password is ``password``) and is trusted on
/// the Unix socket in the directory. Any failure throws a ``ClusterError`` that says what to install or fix:
/// tests never skip silently.
final class PostgresCluster: Sendable {
    /// The superuser's password over TCP.
    static let password = "pg-test-Secret-4711"

    let directory: String
    let port: Int
    let bin: String

    var dataDirectory: String { directory + "/data" }

    /// A URL for the sink (the password given literally, as a config would after `${ENV}` resolution).
    func url(password: String = PostgresCluster.password) -> String {
        "postgres://postgres:\(password)@127.0.0.1:\(port)/postgres"
    }

    private init(directory: String, port: Int, bin: String) {
        self.directory = directory
        self.port = port
        self.bin = bin
    }

    /// Creates and starts a cluster. The port is free when picked, but another test may bind it before the server
    /// does (the parallel suite starts many servers): then it starts again on another port, up to three times.
    static func start() async throws -> PostgresCluster {
        let bin = try binDirectory()
        var attempt = 0
        while true {
            attempt += 1
            let directory = NSTemporaryDirectory() + "watcher-pg-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let cluster = PostgresCluster(directory: directory, port: try freePort(), bin: bin)
            do {
                try await cluster.initialize()
                try await cluster.startServer()
                return cluster
            } catch {
                cluster.remove()
                guard attempt < 3, "\(error)".contains("Address already in use") else { throw error }
            }
        }
    }

    /// Restarts the server (fast shutdown: open connections are terminated) on the same port.
    func restart() async throws {
        try await pgctl([
            "restart", "-w", "-t", "60", "-m", "fast", "-l", directory + "/server.log", "-o", serverOptions,
        ])
    }

    /// Stops the server (fast shutdown), keeping the data.
    func stopServer() async throws {
        try await pgctl(["stop", "-w", "-t", "60", "-m", "fast"])
    }

    /// Starts a stopped server again.
    func startServer() async throws {
        try await pgctl(["start", "-w", "-t", "60", "-l", directory + "/server.log", "-o", serverOptions])
    }

    /// Stops the server and deletes the directory.
    func stop() async {
        _ = try? await pgctl(["stop", "-w", "-m", "immediate"])
        remove()
    }

    private var serverOptions: String {
        "-k \(directory) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
    }

    private func initialize() async throws {
        let passwordFile = directory + "/pwfile"
        try Self.password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
        if getuid() == 0 {
            for path in [directory, passwordFile] {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: path)
            }
        }
        try await run(
            bin + "/initdb",
            [
                "-D", dataDirectory, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                "--pwfile=\(passwordFile)", "-N", "-E", "UTF8", "--locale=C",
            ]
        )
    }

    private func pgctl(_ arguments: [String]) async throws {
        try await run(bin + "/pg_ctl", ["-D", dataDirectory] + arguments)
    }

    private func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a PostgreSQL program, as `postgres` when we are root; throws with its output when it fails. It waits
    /// off the concurrency threads (``ProcessRunner``): `initdb` and `pg_ctl start` take seconds.
    private func run(_ program: String, _ arguments: [String]) async throws {
        let argv =
            getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments : [program] + arguments
        let outcome = try await ProcessRunner.run(argv, scratch: directory)
        guard outcome.status == 0 else {
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            throw ClusterError(
                "\((program as NSString).lastPathComponent) \(arguments.first ?? "") failed "
                    + "(status \(outcome.status)): \(outcome.output)\n--- server.log ---\n\(log.suffix(2000))"
            )
        }
    }

    /// The newest `/usr/lib/postgresql/<version>/bin` holding `initdb`.
    private static func binDirectory() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let found = versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }.first {
            FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
        }
        guard let found else {
            throw ClusterError(
                "PostgreSQL is not installed (no \(root)/*/bin/initdb): run `apt-get install postgresql` "
                    + "(make test-deps does) to run the postgres sink tests"
            )
        }
        return found
    }
}

/// The test PostgreSQL cluster could not be set up.
struct ClusterError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = "PostgreSQL test cluster: " + description }
}

/// Runs `body` with a fresh cluster, stopped and removed afterwards.
func withCluster<T: Sendable>(_ body: (PostgresCluster) async throws -> T) async throws -> T {
    let cluster = try await PostgresCluster.start()
    do {
        let result = try await body(cluster)
        await cluster.stop()
        return result
    } catch {
        await cluster.stop()
        throw error
    }
}
