import Foundation
import WatcherTesting

#if canImport(Glibc)
    import Glibc
#endif

/// What systemd listens on for a `Type=notify` service: a Unix datagram socket, bound in a test's directory, whose
/// path goes to the child as `NOTIFY_SOCKET`. Reads never block (the socket is non-blocking), so a wait polls with
/// ``eventually(timeout:_:_:)`` and holds no concurrency thread.
package final class NotifySocket: Sendable {
    /// The socket's path (`NOTIFY_SOCKET`).
    package let path: String
    private let descriptor: Int32

    /// Binds a socket at `path` (shorter than 108 bytes); a leading `@` binds it in the abstract namespace.
    package init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        guard descriptor >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ProcessRunnerError(description: "cannot make a notify socket at \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length)
            }
        }
        guard bound == 0 else {
            Glibc.close(descriptor)
            throw ProcessRunnerError(description: "cannot bind \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { Glibc.close(descriptor) }

    /// The next datagram, if one has arrived.
    package func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// Reads datagrams until one has a line equal to `line` (such as `READY=1`) and returns every one read; throws
    /// ``TimedOut`` after `timeout`, or as soon as `stillRunning` says the sender is gone.
    package func wait(
        for line: String,
        timeout: Duration = .seconds(30),
        stillRunning: () -> Bool = { true }
    ) async throws -> [String] {
        var seen: [String] = []
        try await eventually(timeout: timeout, "\(line) on \(path)") {
            while let message = receive() {
                seen.append(message)
                if message.split(separator: "\n").contains(Substring(line)) { return true }
            }
            if !stillRunning() { throw TimedOut(what: "\(line) (the sender is gone; it sent \(seen))") }
            return false
        }
        return seen
    }
}
