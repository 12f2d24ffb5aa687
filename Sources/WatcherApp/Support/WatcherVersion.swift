/// The build's version, shown by `--version` and sent as `User-Agent: watcher/<version>`.
public enum WatcherVersion {
    /// The semantic version.
    public static let current = "0.1.0"
    /// The `User-Agent` header value.
    public static var userAgent: String { "watcher/\(current)" }
}
