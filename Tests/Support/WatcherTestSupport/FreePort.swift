import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP port nobody listens on now (bound to port 0, then released). Prefer binding servers to port 0 and
/// reading the port back; this is for programs that must be told a port before they start (PostgreSQL, the CLI).
package func freePort() throws -> Int { try RefusingPort().port }

/// A loopback port that refuses every connection for as long as this value lives: it is bound but never listens,
/// so no other server of the parallel suite can take it, as one could a port from ``freePort()``.
package final class RefusingPort: Sendable {
    /// The port.
    package let port: Int
    private let fd: Int32

    /// Binds a port on 127.0.0.1 without listening on it.
    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ProcessRunnerError(description: "socket() failed: errno \(errno)") }
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
        guard bound else {
            close(fd)
            throw ProcessRunnerError(description: "cannot bind a loopback port: errno \(errno)")
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
