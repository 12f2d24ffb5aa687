extension BitcoinURI {
    /// A BIP321 proof-of-payment callback, from `pop=` or `req-pop=`.
    ///
    /// This daemon never opens it; it is parsed so that `req-pop` does not make the URI invalid.
    public struct ProofOfPayment: Sendable, Hashable {
        /// The callback URI prefix, percent-decoded once.
        public let uri: String
        /// Whether it came as `req-pop`: a wallet that will not open it must not pay.
        public let isRequired: Bool

        /// Creates a callback from its decoded URI prefix.
        public init(uri: String, isRequired: Bool) {
            self.uri = uri
            self.isRequired = isRequired
        }

        /// Schemes BIP321 forbids because they would open a web browser.
        public static let forbiddenSchemes: Set<String> = ["http", "https", "file", "javascript", "mailto"]

        /// The callback's scheme, lower-cased, or `nil` when it has none.
        public var scheme: String? {
            guard let colon = uri.firstIndex(of: ":"), colon > uri.startIndex else { return nil }
            return uri[..<colon].lowercased()
        }

        /// Whether a wallet may open the callback: it has a scheme and that scheme is not forbidden.
        public var isSafeToOpen: Bool {
            guard let scheme else { return false }
            return !Self.forbiddenSchemes.contains(scheme)
        }
    }
}
