import Foundation
import WatcherCore

/// The standard process metrics of the Prometheus client libraries, read from `/proc/self` at scrape time.
public struct ProcessStats: Sendable {
    /// Resident memory in bytes.
    public var residentBytes: Int
    /// Virtual memory in bytes.
    public var virtualBytes: Int
    /// User plus system CPU time in seconds.
    public var cpuSeconds: Double
    /// Open file descriptors.
    public var openFDs: Int
    /// The soft limit of file descriptors.
    public var maxFDs: Int
    /// When the process started, in seconds since the Unix epoch.
    public var startTime: Double

    /// Reads the current process's figures; `nil` where `/proc` is not mounted.
    public static func read() -> ProcessStats? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name, which may contain spaces: field 3 (state) is the first.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Double? { fields.indices.contains(number - 3) ? Double(fields[number - 3]) : nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let utime = field(14), let stime = field(15), let start = field(22), let vsize = field(23),
            let rss = field(24), ticks > 0
        else { return nil }
        let openFDs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        var limit = rlimit()
        let maxFDs = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(limit.rlim_cur) : 0
        return ProcessStats(
            residentBytes: Int(rss) * page,
            virtualBytes: Int(vsize),
            cpuSeconds: (utime + stime) / ticks,
            openFDs: openFDs,
            maxFDs: maxFDs,
            startTime: bootTime() + start / ticks
        )
    }

    /// The boot time from `/proc/stat` (`btime`), in seconds since the Unix epoch.
    static func bootTime() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let value = Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        else { return 0 }
        return value
    }
}
