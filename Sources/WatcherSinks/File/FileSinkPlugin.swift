import WatcherCore
import WatcherJSON

/// The `file` sink: JSON Lines appended to a file, with an fsync policy and size-based rotation.
public enum FileSinkPlugin: SinkPlugin {
    /// Options of a `file` sink.
    public struct Options: PluginOptions {
        /// When to fsync.
        public enum FsyncPolicy: Sendable, Equatable {
            /// After every batch, before the cursor moves.
            case always
            /// At most this often (and when idle once it has passed): a process crash loses nothing, an OS crash
            /// may lose the last interval's lines although the cursor passed them.
            case interval(Duration)
        }

        /// The file path.
        public var path: String
        /// The fsync policy.
        public var fsync: FsyncPolicy
        /// Rotate when the file exceeds this many bytes.
        public var maxBytes: Int
        /// Rotated files to keep.
        public var keep: Int

        /// Creates options in code (tests, embedding); the config reads them with ``init(from:)``.
        public init(path: String, fsync: FsyncPolicy = .always, maxBytes: Int = 64 << 20, keep: Int = 5) {
            self.path = path
            self.fsync = fsync
            self.maxBytes = maxBytes
            self.keep = keep
        }

        public init(from reader: ObjectReader) {
            path = reader.string("path", required: true, doc: "The JSON Lines file to append to.") ?? ""
            let fsyncText = reader.string("fsync", default: "always", doc: "\"always\", or an interval such as \"1s\".")
            switch fsyncText {
            case "always": fsync = .always
            case let text:
                if let interval = Duration(configText: text), interval > .zero {
                    fsync = .interval(interval)
                } else {
                    reader.context.error(
                        reader.path.key("fsync"),
                        "expected \"always\" or a duration such as \"1s\", got \(JSONValue.quoted(text))"
                    )
                    fsync = .always
                }
            }
            maxBytes =
                reader.int(
                    "maxBytes",
                    default: 64 << 20,
                    range: 4096...(1 << 40),
                    doc: "Rotate past this size in bytes."
                )
            keep = reader.int("keep", default: 5, range: 0...1000, doc: "Rotated files to keep.")
        }
    }

    public static let descriptor = PluginDescriptor.sink(
        type: "file",
        summary: "Appends events as JSON Lines to a file, with fsync policy and size-based rotation.",
        capabilities: ["jsonl", "rotation"]
    )

    public static func make(id: String, options: Options, context: PluginContext) throws -> any Sink {
        try FileSink(id: id, options: options, logger: context.logger, time: context.time)
    }
}
