/// Small `watcher.json` texts for config tests: public Blockbook, a Coinbase price feed and stdout, with any part
/// replaced.
package enum ConfigText {
    /// The Blockbook provider `bb`.
    package static let provider = #"{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example"}}"#
    /// The price provider `cb`.
    package static let price = #"{"id": "cb", "type": "json-price", "options": {"preset": "coinbase"}}"#
    /// The stdout sink `out`.
    package static let sink = #"{"id": "out", "type": "stdout"}"#

    /// A config with one part replaced.
    package static func config(
        storage: String = #"{"path": "./data"}"#,
        providers: String? = nil,
        watches: String = "[]",
        sinks: String? = nil
    ) -> String {
        """
        {"storage": \(storage), "providers": \(providers ?? "[\(provider), \(price)]"),
         "watches": \(watches), "sinks": \(sinks ?? "[\(sink)]")}
        """
    }
}
