import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// `GET /api/v2/xpub/<xpub|descriptor>?details=&tokens=&gap=&page=&pageSize=&from=&to=`, as Blockbook's
/// `GetXpubAddress` (`api/xpub.go`) answers it: both branches derived (receive 0, change 1) up to the last used
/// address plus `gap` (the last used is 0 when none is, so `0...gap` at least; the change branch reaches at least
/// the receive branch's last used index), "used" meaning a confirmed transaction; mempool transactions of every
/// derived address count for `unconfirmedBalance`/`unconfirmedTxs` and come first on page 1; paging counts the
/// confirmed transactions only.
extension BlockbookRenderer {
    /// The `tokens` parameter: which derived addresses are listed.
    enum XpubTokens: String, Sendable {
        case nonzero
        case used
        case derived

        /// Blockbook's default is `nonzero`.
        init(parameter: Substring?) { self = parameter.flatMap { Self(rawValue: String($0)) } ?? .nonzero }
    }

    /// One derived address with what the ledger knows of it.
    struct XpubAddress: Sendable {
        var address: String
        var path: String
        var confirmed: [String]
        var received: Int64
        var sent: Int64
    }

    /// The request's parameters.
    struct XpubQuery: Sendable {
        var details: AddressDetails
        var tokens: XpubTokens
        var gap: Int?
        var page: Int?
        var pageSize: Int?
        var from: Int?
        var to: Int?
    }

    func xpub(_ text: Substring, query: XpubQuery) -> SimReply {
        guard !text.isEmpty else { return Self.error("Missing xpub") }
        let wallet: WalletDescriptor
        do {
            wallet = try WalletDescriptor(parsing: String(text), network: chain.parameters.network.addressNetwork)
        } catch {
            return Self.error("Invalid xpub or descriptor, \(error)")
        }
        guard wallet.extendedKeys.count == 1, wallet.descriptor.keys.count == 1,
            [.p2pkh, .p2shP2wpkh, .p2wpkh, .p2tr].contains(wallet.scriptType)
        else {
            return Self.error("Invalid xpub or descriptor, multisig descriptors are not supported")
        }
        // Blockbook adds one: there must be `gap` unused addresses after the last used one.
        let gap = (query.gap.map { $0 <= 0 ? 20 : min($0, 10_000) } ?? 20) + 1
        let base = Self.basePath(wallet)
        var branches: [[XpubAddress]] = []
        var receiveLastUsed = 0
        for branch in WalletDescriptor.Branch.allCases {
            guard branch == .receive || wallet.change != nil else { continue }
            let minimum = branch == .receive ? 0 : receiveLastUsed
            guard let (addresses, lastUsed) = derive(wallet, branch, gap: gap, minimum: minimum, base: base) else {
                return Self.error("Internal server error", status: 500)
            }
            if branch == .receive { receiveLastUsed = lastUsed }
            branches.append(addresses)
        }
        return .json(xpubBody(String(text), branches: branches, query: query))
    }

    /// Derives one branch until `gap` addresses follow the last used one (Blockbook's `xpubScanAddresses`).
    private func derive(
        _ wallet: WalletDescriptor,
        _ branch: WalletDescriptor.Branch,
        gap: Int,
        minimum: Int,
        base: String
    ) -> ([XpubAddress], Int)? {
        var addresses: [XpubAddress] = []
        var lastUsed = 0
        while addresses.count - lastUsed < gap || addresses.count < minimum {
            let index = addresses.count
            guard index <= WalletWindowLimit.maxIndex,
                let derived = try? wallet.address(branch, index: UInt32(index))
            else { return nil }
            let text = derived.address.string
            let entry = chain.ledger.entry(text)
            if !entry.txids.isEmpty { lastUsed = index }
            addresses.append(
                XpubAddress(
                    address: text,
                    path: "\(base)/\(branch.rawValue)/\(index)",
                    confirmed: entry.txids,
                    received: entry.received,
                    sent: entry.sent
                )
            )
        }
        return (addresses, lastUsed)
    }

    private func xpubBody(_ text: String, branches: [[XpubAddress]], query: XpubQuery) -> JSONValue {
        let all = branches.flatMap { $0 }
        let own = Set(all.map(\.address))
        // Mempool transactions touching any derived address, in arrival order, and the unconfirmed balance.
        var mempool: [String] = []
        var unconfirmed: Int64 = 0
        for txid in chain.mempool {
            guard let tx = chain.transaction(txid) else { continue }
            let received = tx.outputs.reduce(Int64(0)) { $0 + ($1.address.map(own.contains) == true ? $1.value : 0) }
            let sent = tx.inputs.reduce(Int64(0)) { $0 + (own.contains($1.address) ? $1.value : 0) }
            let touches =
                tx.outputs.contains { $0.address.map(own.contains) == true }
                || tx.inputs.contains { own.contains($0.address) }
            guard touches else { continue }
            mempool.append(txid)
            unconfirmed += received - sent
        }
        // Confirmed transactions once each, newest first; the height filter applies to the list only.
        var seen: Set<String> = []
        var confirmed: [(txid: String, height: Int, position: Int)] = []
        for address in all {
            for txid in address.confirmed where seen.insert(txid).inserted {
                guard let location = chain.location(of: txid) else { continue }
                confirmed.append((txid, location.height, location.index))
            }
        }
        let txCount = confirmed.count
        confirmed.sort { ($0.height, $0.position) > ($1.height, $1.position) }
        let filtered = query.from != nil || query.to != nil
        let listed = confirmed.filter { item in
            item.height >= (query.from ?? 0) && item.height <= (query.to.flatMap { $0 == 0 ? nil : $0 } ?? .max)
        }
        var object = JSONObjectBuilder()
        var page: Paging?
        if query.details.hasPaging {
            let size = query.pageSize.map { (1...1000).contains($0) ? $0 : 1000 } ?? 1000
            var paging = Paging(count: listed.count, page: query.page, itemsOnPage: size)
            if filtered, listed.count >= size { paging.totalPages = -1 }
            paging.append(to: &object)
            page = paging
        }
        let balance = all.reduce(Int64(0)) { $0 + $1.received - $1.sent }
        let sent = all.reduce(Int64(0)) { $0 + $1.sent }
        object.add("address", .string(text))
        object.add("balance", .satoshiString(balance))
        object.add("totalReceived", .satoshiString(balance + sent))
        object.add("totalSent", .satoshiString(sent))
        if query.details != .basic { object.add("unconfirmedBalance", .satoshiString(unconfirmed)) }
        object.add("unconfirmedTxs", .integer(mempool.count))
        object.add("txs", .integer(txCount))
        object.add("addrTxCount", .integer(all.reduce(0) { $0 + $1.confirmed.count }))
        if let page {
            // Mempool transactions only on page 1 and only without an upper height bound.
            let pending = page.page == 1 && (query.to ?? 0) == 0 ? mempool.reversed() : []
            let txids = pending + listed[page.range].map(\.txid)
            if query.details == .txids {
                if !txids.isEmpty { object.add("txids", .array(txids.map { .string($0) })) }
            } else if !txids.isEmpty {
                let json = BlockbookTxJSON(chain: chain)
                let txs = txids.compactMap { chain.transaction($0) }
                object.add(
                    "transactions",
                    .array(txs.map { query.details == .txs ? json.full($0, own: own) : json.light($0) })
                )
            }
        }
        let used = all.filter { !$0.confirmed.isEmpty }.count
        if used > 0 { object.add("usedTokens", .integer(used)) }
        if query.details != .basic {
            let tokens = all.filter { address in
                switch query.tokens {
                case .derived: true
                case .used: !address.confirmed.isEmpty
                case .nonzero: address.received != address.sent
                }
            }
            if !tokens.isEmpty {
                let balances = query.details != .tokens
                object.add("tokens", .array(tokens.map { token($0, balances: balances) }))
            }
        }
        return object.value
    }

    private func token(_ address: XpubAddress, balances: Bool) -> JSONValue {
        var object = JSONObjectBuilder()
        object.add("type", .string("XPUBAddress"))
        object.add("standard", .string("XPUBAddress"))
        object.add("name", .string(address.address))
        object.add("path", .string(address.path))
        object.add("transfers", .integer(address.confirmed.count))
        object.add("decimals", .integer(8))
        if balances, !address.confirmed.isEmpty {
            object.add("balance", .satoshiString(address.received - address.sent))
            object.add("totalReceived", .satoshiString(address.received))
            object.add("totalSent", .satoshiString(address.sent))
        }
        return object.value
    }

    /// The path Blockbook prefixes to `change/index`: the key origin's path when the descriptor gives one, else for
    /// an account-level key `m/purpose'/0'/account'` by its script, else `unknown`.
    static func basePath(_ wallet: WalletDescriptor) -> String {
        let hardened = UInt32(1) << 31
        let step = { (c: UInt32) in c >= hardened ? "\(c - hardened)'" : "\(c)" }
        if let origin = wallet.keyOrigins.first ?? nil {
            return (["m"] + origin.path.components.map(step)).joined(separator: "/")
        }
        guard let key = wallet.extendedKeys.first, key.depth == 3, key.childNumber >= hardened else {
            return "unknown"
        }
        let purpose: Int =
            switch wallet.scriptType {
            case .p2pkh: 44
            case .p2shP2wpkh: 49
            case .p2tr: 86
            default: 84
            }
        return "m/\(purpose)'/0'/\(step(key.childNumber))"
    }
}

/// The highest non-hardened BIP32 index.
private enum WalletWindowLimit {
    static let maxIndex = Int(Int32.max)
}
