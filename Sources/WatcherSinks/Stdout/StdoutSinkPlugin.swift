import WatcherCore

/// The `stdout` sink: human lines or JSON Lines on standard output.
public enum StdoutSinkPlugin: SinkPlugin {
    /// Options of a `stdout` sink.
    public struct Options: PluginOptions {
        /// `pretty` or `jsonl`.
        public var format: String
        /// `auto` (colour on a TTY), `always` or `never`.
        public var color: String

        public init(from reader: ObjectReader) {
            format =
                reader.choice("format", ["pretty", "jsonl"], default: "pretty", doc: "pretty lines or jsonl.")
            color =
                reader.choice("color", ["auto", "always", "never"], default: "auto", doc: "Colour: auto (on a TTY).")
        }
    }

    public static let descriptor = PluginDescriptor.sink(
        type: "stdout",
        summary: "Prints events to standard output as pretty lines (colour on a TTY) or JSON Lines.",
        capabilities: ["pretty", "jsonl"]
    )

    public static func make(id: String, options: Options, context: PluginContext) throws -> any Sink {
        StdoutSink(id: id, options: options)
    }
}
