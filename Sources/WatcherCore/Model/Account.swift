import Foundation

/// An address a user follows from the CLI (`watcher accounts add`), kept in the store.
public struct Account: Sendable, Hashable, Codable {
    /// The chain, e.g. `btc`.
    public var chain: String
    /// The address, canonical form.
    public var address: String
    /// A user label.
    public var label: String?
    /// When it was added.
    public var addedAt: Date

    /// Creates an account.
    public init(chain: String, address: String, label: String?, addedAt: Date) {
        self.chain = chain
        self.address = address
        self.label = label
        self.addedAt = addedAt
    }
}
