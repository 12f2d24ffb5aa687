import Foundation
import Glibc

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

    /// Creates and starts a cluster.
    static func start() throws -> PostgresCluster {
        let bin = try binDirectory()
        let directory = NSTemporaryDirectory() + "watcher-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cluster = PostgresCluster(directory: directory, port: try freePort(), bin: bin)
        do {
            try cluster.initialize()
            try cluster.startServer()
            return cluster
        } catch {
            cluster.remove()
            throw error
        }
    }

    /// Restarts the server (fast shutdown: open connections are terminated) on the same port.
    func restart() throws {
        try pgctl(["restart", "-w", "-t", "60", "-m", "fast", "-l", directory + "/server.log", "-o", serverOptions])
    }

    /// Stops the server (fast shutdown), keeping the data.
    func stopServer() throws {
        try pgctl(["stop", "-w", "-t", "60", "-m", "fast"])
    }

    /// Starts a stopped server again.
    func startServer() throws {
        try pgctl(["start", "-w", "-t", "60", "-l", directory + "/server.log", "-o", serverOptions])
    }

    /// Stops the server and deletes the directory.
    func stop() {
        _ = try? pgctl(["stop", "-w", "-m", "immediate"])
        remove()
    }

    private var serverOptions: String {
        "-k \(directory) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
    }

    private func initialize() throws {
        let passwordFile = directory + "/pwfile"
        try Self.password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
        if getuid() == 0 {
            for path in [directory, passwordFile] {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: path)
            }
        }
        try run(
            bin + "/initdb",
            [
                "-D", dataDirectory, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                "--pwfile=\(passwordFile)", "-N", "-E", "UTF8", "--locale=C",
            ]
        )
    }

    private func pgctl(_ arguments: [String]) throws {
        try run(bin + "/pg_ctl", ["-D", dataDirectory] + arguments)
    }

    private func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a PostgreSQL program, as `postgres` when we are root; throws with its output when it fails.
    ///
    /// `posix_spawn` and `waitpid` rather than `Process`, whose `waitUntilExit` can miss the exit when called from
    /// a Swift concurrency thread; output goes to a file, not a pipe, which the server that `pg_ctl start` leaves
    /// running would hold open for ever.
    private func run(_ program: String, _ arguments: [String]) throws {
        let argv =
            getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments : [program] + arguments
        let outputPath = directory + "/command-\(UUID().uuidString.prefix(8)).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw ClusterError("cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            throw ClusterError(
                "\((program as NSString).lastPathComponent) \(arguments.first ?? "") failed "
                    + "(status \(status)): \(text)\n--- server.log ---\n\(log.suffix(2000))"
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

    /// A loopback TCP port nobody listens on now (bound to port 0, then released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClusterError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw ClusterError("cannot bind a loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The test PostgreSQL cluster could not be set up.
struct ClusterError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = "PostgreSQL test cluster: " + description }
}

/// Runs `body` with a fresh cluster, stopped and removed afterwards.
func withCluster<T: Sendable>(_ body: (PostgresCluster) async throws -> T) async throws -> T {
    let cluster = try PostgresCluster.start()
    do {
        let result = try await body(cluster)
        cluster.stop()
        return result
    } catch {
        cluster.stop()
        throw error
    }
}
