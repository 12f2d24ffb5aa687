import WatcherCore
import WatcherJSON

/// The JSON mirrors of the CLI's `--json` output (the field names are defined once, in `WatcherCore`).
enum StatusJSON {
    static func block(_ header: BlockHeader) -> JSONValue { header.json }
}
