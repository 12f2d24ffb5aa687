import WatcherCore
import WatcherJSON

/// `agree` and `maxLag`: trust across a watch's providers (`docs/configuration.md#trust-across-providers`).
extension WatchFieldsReader {
    /// Reads `agree` (1 to 16) and `maxLag` (0 to 1000). Neither is shown by `watcher check` unless written, so
    /// the resolved config of a watch that does not use them stays as it was.
    mutating func readTrust(_ reader: ObjectReader) {
        agree = reader.int(
            "agree",
            default: 1,
            range: 1...16,
            doc: "Providers that must report a transaction in the same block before its confirmation is announced "
                + "(address, wallet and tx watches; at most the providers that serve transaction lookups)."
        )
        maxLag = reader.int(
            "maxLag",
            default: 2,
            range: 0...1_000,
            doc: "With agree above 1: blocks a provider may be behind the agreed tip before it is set aside."
        )
        for key in ["agree", "maxLag"] where !reader.members.contains(where: { $0.key == key }) {
            reader.hide(key)
        }
    }
}
