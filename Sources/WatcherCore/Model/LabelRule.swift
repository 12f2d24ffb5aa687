/// The one rule for a label a user gives an address (`watcher accounts add --label`, `watcher wallets next --label`,
/// a `bitcoin:` URI's `label`, the `label` of `POST /api/accounts` and `POST /api/wallets/{id}/next`): at most
/// ``maxCharacters`` characters.
public enum LabelRule {
    /// The most characters a label may have.
    public static let maxCharacters = 100

    /// Why `label` is refused, or `nil` when it is fine.
    public static func problem(_ label: String) -> String? {
        label.count > maxCharacters ? "the label has \(label.count) characters; the limit is \(maxCharacters)" : nil
    }
}
