/// A followed wallet in its normalised shape: script type, keys with their origins, a receive branch, an
/// optional change branch, and the network.
///
/// It comes from an output descriptor (`wpkh([73c5da0a/84h/0h/0h]xpub…/<0;1>/*)`, or a receive/change pair
/// `…/0/*` + `…/1/*`) or from a bare SLIP-132 account key, whose prefix picks the script: `xpub`/`tpub`
/// P2PKH, `ypub`/`upub` P2SH-P2WPKH, `zpub`/`vpub` P2WPKH, each with receive `0/*` and change `1/*`.
/// Taproot has no prefix: it needs `tr(…)`.
public struct WalletDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// A branch of the wallet.
    public enum Branch: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// Addresses handed out to payers (tuple element 0, usually `/0/*`).
        case receive = 0
        /// Change addresses (tuple element 1, usually `/1/*`).
        case change = 1

        /// `receive` or `change`.
        public var description: String { self == .receive ? "receive" : "change" }
    }

    /// The script type.
    public let scriptType: ScriptType
    /// The descriptor as normalised: the multipath form when the wallet came as one, else the receive one.
    public let descriptor: Descriptor
    /// The single-path descriptor of the receive branch.
    public let receive: Descriptor
    /// The single-path descriptor of the change branch, if the wallet has one.
    public let change: Descriptor?

    /// Reads a descriptor (anything with `(`) or a bare extended public key. Surrounding whitespace is
    /// ignored.
    /// - Throws: a ``WalletError``: ``WalletError/empty`` for empty text; private keys give "watch-only: give the extended public key …".
    public init(parsing text: String, network: BitcoinAddress.Network) throws(WalletError) {
        let scalars = text.unicodeScalars
        let first = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let last = scalars.lastIndex { !$0.properties.isWhitespace } ?? scalars.startIndex
        let trimmed = first < scalars.endIndex ? String(scalars[first...last]) : ""
        guard !trimmed.isEmpty else { throw .empty }
        if trimmed.contains("(") {
            let descriptor: Descriptor
            do {
                descriptor = try Descriptor(trimmed, network: network)
            } catch {
                throw .descriptor(error)
            }
            try self.init(descriptor: descriptor)
            return
        }
        let key: ExtendedPublicKey
        do {
            key = try ExtendedPublicKey(trimmed, network: network)
        } catch {
            throw .extendedKey(error)
        }
        try self.init(accountKey: key, network: network)
    }

    /// A wallet from a descriptor with a `<receive;change>` tuple, or a single ranged path (receive only).
    public init(descriptor: Descriptor) throws(WalletError) {
        guard let scriptType = descriptor.scriptType else { throw .unsupportedScript(descriptor.script.shape) }
        guard descriptor.isRanged else { throw .notRanged }
        switch descriptor.branchCount {
        case 1:
            self.init(scriptType: scriptType, descriptor: descriptor, receive: descriptor, change: nil)
        case 2:
            let branches = descriptor.branches()
            self.init(scriptType: scriptType, descriptor: descriptor, receive: branches[0], change: branches[1])
        default:
            throw .branchCount(descriptor.branchCount)
        }
    }

    /// A wallet from a receive descriptor and a change descriptor (`…/0/*` and `…/1/*`).
    public init(receive: Descriptor, change: Descriptor) throws(WalletError) {
        let wallet = try WalletDescriptor(descriptor: receive)
        let other = try WalletDescriptor(descriptor: change)
        guard wallet.change == nil, other.change == nil else { throw .mismatchedBranches("each must be single-path") }
        guard wallet.scriptType == other.scriptType else {
            throw .mismatchedBranches("\(wallet.scriptType) and \(other.scriptType)")
        }
        guard receive.network == change.network else { throw .mismatchedBranches("different networks") }
        self.init(scriptType: wallet.scriptType, descriptor: receive, receive: receive, change: change)
    }

    /// A wallet from a bare account key: the script comes from the prefix (``ExtendedKeyVersion/impliedScript``),
    /// receive is `0/*` and change `1/*`.
    /// - Throws: ``WalletError/multisigPrefix(_:)`` for `Ypub`/`Zpub`/`Upub`/`Vpub`, or a network mismatch.
    public init(accountKey: ExtendedPublicKey, network: BitcoinAddress.Network) throws(WalletError) {
        guard accountKey.version.isUsable(on: network) else {
            throw .extendedKey(.wrongNetwork(key: accountKey.version, expected: network))
        }
        if accountKey.version.isMultisig { throw .multisigPrefix(accountKey.version) }
        let key: DescriptorKey
        do {
            key = try DescriptorKey(
                origin: nil,
                extendedKey: accountKey,
                path: [],
                multipath: [0, 1],
                pathAfterMultipath: [],
                isRanged: true
            )
        } catch {
            throw .descriptor(error)
        }
        let script: DescriptorScript =
            switch accountKey.version.impliedScript {
            case .p2shP2wpkh: .sh(.wpkh(key))
            case .p2wpkh: .wpkh(key)
            default: .pkh(key)
            }
        try self.init(descriptor: Descriptor(script: script, network: network))
    }

    private init(scriptType: ScriptType, descriptor: Descriptor, receive: Descriptor, change: Descriptor?) {
        self.scriptType = scriptType
        self.descriptor = descriptor
        self.receive = receive
        self.change = change
    }

    /// The network.
    public var network: BitcoinAddress.Network { descriptor.network }

    /// The extended keys as given (before the steps after them).
    public var extendedKeys: [ExtendedPublicKey] { receive.keys.compactMap(\.extendedKey) }

    /// The key origins given, in key order (`nil` where a key has none).
    public var keyOrigins: [KeyOrigin?] { receive.keys.map(\.origin) }

    /// Whether a key is a master key (depth 0): the addresses will rarely match the user's wallet. Warn.
    public var hasMasterKey: Bool { extendedKeys.contains { $0.isMaster } }

    /// Whether every extended key is at depth 3, the account level of BIP44/49/84/86. Warn otherwise.
    public var isAccountLevel: Bool { extendedKeys.allSatisfy { $0.depth == 3 } }

    /// The wallet's identity: both branches without key origins. A bare `zpub`, `wpkh(xpub/<0;1>/*)` and
    /// `wpkh([fp/84h/0h/0h]xpub/0/*)` + `…/1/*` of the same key have the same identity.
    public var identity: String {
        [receive, change].compactMap { $0?.script.formatted(includingOrigins: false) }.joined(separator: " ")
    }

    /// The normalised descriptor(s) with checksum: the multipath form, or receive and change.
    public var description: String {
        descriptor.branchCount == 1 && change != nil
            ? "\(receive) \(change.map(\.description) ?? "")" : descriptor.description
    }

    /// The single-path descriptor of a branch.
    /// - Throws: ``WalletError/noChangeBranch``.
    public func descriptor(for branch: Branch) throws(WalletError) -> Descriptor {
        switch branch {
        case .receive: return receive
        case .change:
            guard let change else { throw .noChangeBranch }
            return change
        }
    }

    /// The scriptPubKey at `index` of `branch`: one CKDpub and one hash (or taproot tweak).
    public func scriptPubKey(_ branch: Branch, index: UInt32) throws(WalletError) -> [UInt8] {
        let descriptor = try descriptor(for: branch)
        do {
            return try descriptor.scriptPubKey(index: index)
        } catch {
            throw .descriptor(error)
        }
    }

    /// The address at `index` of `branch`, with its scriptPubKey and derivation path.
    public func address(_ branch: Branch, index: UInt32) throws(WalletError) -> DerivedAddress {
        let descriptor = try descriptor(for: branch)
        let script = try scriptPubKey(branch, index: index)
        guard let address = BitcoinAddress(scriptPubKey: script, network: network) else {
            fatalError("every wallet script type has an address form")
        }
        let path = descriptor.keys[0].derivationPath(index: index)
        return DerivedAddress(branch: branch, index: index, scriptPubKey: script, address: address, path: path)
    }
}
