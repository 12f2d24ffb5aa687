import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// systemd's notification protocol (`sd_notify(3)`) without libsystemd: one datagram of `KEY=value` lines to the
/// Unix socket named by `NOTIFY_SOCKET`. Under `Type=notify` the unit is started once the daemon sends `READY=1`;
/// `RELOADING=1` and `STOPPING=1` show in `systemctl status`. Without `NOTIFY_SOCKET` (not under systemd) it sends
/// nothing.
struct ServiceNotifier: Sendable {
    /// The socket's path; a leading `@` names one in the abstract namespace.
    let socket: String?

    /// The notifier of `NOTIFY_SOCKET` in `environment`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"] ?? ""
        socket = path.hasPrefix("/") || path.hasPrefix("@") ? path : nil
    }

    /// The daemon is up: its signal handlers are installed and the store is open.
    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// A reload of the configuration has begun; ``reloaded()`` ends it.
    func reloading() {
        // Dispatch's uptime is CLOCK_MONOTONIC on Linux, the clock systemd compares MONOTONIC_USEC with.
        send("RELOADING=1\nMONOTONIC_USEC=\(DispatchTime.now().uptimeNanoseconds / 1000)")
    }

    /// The reload is over (applied or refused): ready again.
    func reloaded() { send("READY=1") }

    /// The daemon is shutting down.
    func stopping() { send("STOPPING=1") }

    /// Sends `state`; returns whether it went (false: no socket configured, or sending failed).
    @discardableResult
    func send(_ state: String) -> Bool {
        guard let socket else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socket.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(state.utf8)
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                sendto(descriptor, bytes, bytes.count, flags, target, length)
            }
        }
        return sent == bytes.count
    }
}
