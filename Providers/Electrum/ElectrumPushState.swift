import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// The subscriptions of one push connection: for each scripthash its address, the status last seen and the
/// history read at that status (txid → height), to tell what a change brought.
actor ElectrumPushState {
    struct Followed: Sendable {
        var address: String
        var status: String?
        var history: [String: Int]
        /// When the status was last answered: a re-check leaves a fresh one alone.
        var answeredAt = ContinuousClock.now
    }

    let link: ElectrumLink
    let client: ElectrumClient
    private var followed: [String: Followed] = [:]
    /// Set once the server refused a subscription for its cap (Fulcrum's error 4, `max_subs_per_ip`): no more are
    /// asked on this connection.
    private(set) var capped = false
    /// The addresses asked for but not subscribed because of the cap: their watches' polls cover them.
    private(set) var uncovered: [String] = []
    /// The addresses the server refuses to subscribe because their histories are longer than its limit (ElectrumX's
    /// error 10001): left to their watches' polls, which report them by name.
    private(set) var tooLarge: Set<String> = []
    /// Where the next re-check slice starts, in scripthash order.
    private var cursor = ""
    /// Where the statuses are lent to the provider's summaries, and as which session.
    private var lending: (book: ElectrumStatusBook, session: Int)?
    /// Subscriptions asked and not answered yet: a second asker (the address set's comparison, a summary) waits for
    /// the first one's answer instead of subscribing again.
    private var asking: [String: Task<Result<String?, any Error>, Never>] = [:]
    /// Used scripthashes subscribed by ``follow(_:)`` whose histories it is reading: their statuses.
    private var reading: [String: String] = [:]
    /// Each address's scripthash, computed once: the set is compared every second, and decoding and hashing
    /// every followed address each time would cost a core's tenth at 100,000 addresses.
    private var scripthashes: [String: String] = [:]

    init(link: ElectrumLink, client: ElectrumClient) {
        self.link = link
        self.client = client
    }

    /// How many scripthashes are subscribed.
    var count: Int { followed.count }

    /// Lends every status this connection learns to `book` (as `session`), from now on.
    func lend(to book: ElectrumStatusBook, session: Int) {
        lending = (book, session)
        for (scripthash, entry) in followed { book.record(scripthash, status: entry.status, session: session) }
    }

    /// Sets (or removes) what is known of a subscription, and lends it with the history read at its status.
    private func set(_ scripthash: String, _ entry: Followed?, read: [ElectrumProvider.HistoryEntry]? = nil) {
        followed[scripthash] = entry
        guard let lending else { return }
        if let entry {
            lending.book.record(scripthash, status: entry.status, history: read, session: lending.session)
        } else {
            lending.book.forget(scripthash, session: lending.session)
        }
    }

    /// The status of `address` (its `scripthash`) for a summary: the one followed, or subscribed now and followed
    /// from then on (a used one with its history read, which the summary then finds lent). `nil` when the server
    /// will not tell (its cap, a history past its limit, an error): the summary asks for itself.
    func subscribeNow(_ scripthash: String, address: String) async -> String?? {
        if let known = followed[scripthash] { return .some(known.status) }
        if let status = reading[scripthash] { return .some(status) }
        guard !capped, !tooLarge.contains(address) else { return nil }
        let status: String?
        switch await subscribe(scripthash) {
        case .success(let answer): status = answer
        case .failure(let error):
            if Self.isCap(error) { capped = true }
            return nil
        }
        guard followed[scripthash] == nil else { return .some(status) }
        if status == nil {
            set(scripthash, Followed(address: address, status: nil, history: [:]))
        } else if let status {
            reading[scripthash] = status
            defer { reading[scripthash] = nil }
            guard let (history, read) = try? await self.history(scripthash), followed[scripthash] == nil else {
                return .some(status)
            }
            // Followed from now on, with its history: the summary asking for it gets the same answer.
            set(scripthash, Followed(address: address, status: status, history: history), read: read)
        }
        return .some(status)
    }

    nonisolated func call(_ method: String, _ params: [JSONValue]) async throws -> JSONValue {
        do {
            return try await client.call(method, params, timeout: link.timeout)
        } catch {
            throw link.map(error, method: method)
        }
    }

    /// `blockchain.scripthash.subscribe`, asked once however many ask at the same time.
    func subscribe(_ scripthash: String) async -> Result<String?, any Error> {
        if let task = asking[scripthash] { return await task.value }
        let task = Task {
            do {
                return Result<String?, any Error>.success(
                    try await self.call("blockchain.scripthash.subscribe", [.string(scripthash)]).stringValue
                )
            } catch {
                return .failure(error)
            }
        }
        asking[scripthash] = task
        let answer = await task.value
        asking[scripthash] = nil
        return answer
    }

    /// The height and hash of a `{hex, height}` header object.
    nonisolated func block(_ value: JSONValue) -> (height: Int, hash: String)? {
        guard let hex = value["hex"]?.stringValue, case .number(let text)? = value["height"], let height = Int(text),
            let header = try? RawBlockHeader(hex: hex)
        else { return nil }
        return (height, header.hash.displayHex)
    }

    /// Subscribes the addresses not followed yet (their histories read quietly: what they already hold is the
    /// engine's own sync) and unsubscribes those no longer asked for.
    func follow(_ addresses: [String]) async throws {
        var wanted: [String: String] = [:]
        for address in addresses {
            guard let scripthash = scripthash(of: address) else { continue }
            wanted[scripthash] = address
        }
        // Stopping: the set asked for may be empty because the store is closing, not because nothing is followed.
        try Task.checkCancellation()
        let gone = followed.keys.filter { wanted[$0] == nil }
        for scripthash in gone { set(scripthash, nil) }
        // All at once: a server that holds small answers back (ElectrumX 2 pads them, up to a second) answers a
        // batch in about the time of one.
        await withTaskGroup(of: Void.self) { group in
            for scripthash in gone {
                group.addTask { _ = try? await self.call("blockchain.scripthash.unsubscribe", [.string(scripthash)]) }
            }
        }
        tooLarge.formIntersection(wanted.values)
        let new = wanted.filter { followed[$0.key] == nil && reading[$0.key] == nil && !tooLarge.contains($0.value) }
            .sorted { $0.key < $1.key }
        guard !capped else {
            uncovered = new.map(\.value)
            return
        }
        var start = 0
        while start < new.count {
            try Task.checkCancellation()
            let batch = new[start..<min(start + ElectrumPush.batchSize, new.count)]
            start += ElectrumPush.batchSize
            let answers = await withTaskGroup(of: (String, Result<String?, any Error>).self) { group in
                for (scripthash, _) in batch {
                    group.addTask { (scripthash, await self.subscribe(scripthash)) }
                }
                var result: [String: Result<String?, any Error>] = [:]
                for await (scripthash, answer) in group { result[scripthash] = answer }
                return result
            }
            // The unused ones followed at once. The used ones' histories are read all at once (a padding server
            // answers each in up to a second); meanwhile their statuses answer a summary that asks (`reading`), so
            // nothing is subscribed twice.
            var used: [(scripthash: String, address: String, status: String)] = []
            var failure: (any Error)?
            for (scripthash, address) in batch where failure == nil {
                switch answers[scripthash] {
                case .success(let status)?:
                    // Followed meanwhile (a summary subscribed it on demand, at this same answer): nothing to add.
                    if let known = followed[scripthash], known.status == status { continue }
                    if let status {
                        used.append((scripthash, address, status))
                        reading[scripthash] = status
                    } else {
                        set(scripthash, Followed(address: address, status: nil, history: [:]))
                    }
                case .failure(let error)? where Self.isCap(error):
                    capped = true
                case .failure(let error)? where Self.isTooLarge(error):
                    tooLarge.insert(address)
                case .failure(let error)?:
                    failure = error
                case nil:
                    continue
                }
            }
            defer { for item in used { reading[item.scripthash] = nil } }
            if let failure { throw failure }
            let histories = try await withThrowingTaskGroup(
                of: (String, [String: Int], [ElectrumProvider.HistoryEntry]?).self
            ) { group in
                for item in used {
                    group.addTask {
                        let (history, read) = try await self.history(item.scripthash)
                        return (item.scripthash, history, read)
                    }
                }
                var result: [String: ([String: Int], [ElectrumProvider.HistoryEntry]?)] = [:]
                for try await (scripthash, history, read) in group { result[scripthash] = (history, read) }
                return result
            }
            for item in used {
                guard let (history, read) = histories[item.scripthash] else { continue }
                if let known = followed[item.scripthash], known.status == item.status { continue }
                set(
                    item.scripthash,
                    Followed(address: item.address, status: item.status, history: history),
                    read: read
                )
            }
            if capped {
                uncovered = new.filter { followed[$0.key] == nil }.map(\.value)
                return
            }
        }
        uncovered = []
    }

    /// The scripthash of `address` (`nil`: not an address), from the memo.
    private func scripthash(of address: String) -> String? {
        if let known = scripthashes[address] { return known }
        guard let script = BitcoinAddress.scriptPubKey(fromAddress: address) else { return nil }
        let scripthash = ElectrumHash.scripthash(scriptPubKey: script)
        scripthashes[address] = scripthash
        return scripthash
    }

    /// Whether `error` is the server's subscription cap (Fulcrum's error 4, mapped by ``ElectrumLink/map(_:method:)``).
    static func isCap(_ error: any Error) -> Bool {
        guard case .badRequest(_, let detail) = error as? ProviderError else { return false }
        return detail.contains("max_subs_per_ip")
    }

    /// Whether `error` is a history longer than the server's limit (ElectrumX's error 10001).
    static func isTooLarge(_ error: any Error) -> Bool {
        guard case .badRequest(_, let detail) = error as? ProviderError else { return false }
        return detail.contains("error \(ElectrumLink.historyTooLarge)")
    }

    /// A status notification: when the status moved, the history is read again and each transaction that is new
    /// or at another height is reported.
    func changed(_ scripthash: String, status: String?) async throws -> [PushEvent] {
        guard let before = followed[scripthash], before.status != status else { return [] }
        let history: [String: Int]
        let read: [ElectrumProvider.HistoryEntry]?
        do {
            (history, read) = status == nil ? ([:], []) : try await self.history(scripthash)
        } catch let error where Self.isTooLarge(error) {
            // Grown past the server's limit: the address's watch polls it (and reports it); the push drops it.
            set(scripthash, nil)
            tooLarge.insert(before.address)
            _ = try? await call("blockchain.scripthash.unsubscribe", [.string(scripthash)])
            return []
        }
        // The read suspended this actor: a notification and a re-check of the same change may both have got here.
        // Only the first to come back applies it.
        guard var entry = followed[scripthash], entry.status != status else { return [] }
        let events = history.filter { entry.history[$0.key] != $0.value }.sorted { $0.key < $1.key }.map {
            PushEvent.addressTx(address: entry.address, txid: $0.key, deltaSat: nil, confirmed: $0.value > 0)
        }
        entry.status = status
        entry.history = history
        entry.answeredAt = .now
        set(scripthash, entry, read: read)
        return events
    }

    /// Re-subscribes the next `count` scripthashes (a rotating slice, in scripthash order) and treats each status
    /// answered as a notification: servers can miss one at a block boundary, and re-subscribing costs one request.
    /// - Parameter olderThan: only statuses answered at least that long ago (the timer's re-check: a wallet's first
    ///   sync subscribes hundreds of addresses a minute, and their answers are fresh); `nil` (after a header): all.
    func recheck(count: Int, olderThan: Duration? = nil) async throws -> [PushEvent] {
        let now = ContinuousClock.now
        let sorted = followed.filter { entry in olderThan.map { now - entry.value.answeredAt >= $0 } ?? true }.keys
            .sorted()
        guard !sorted.isEmpty else { return [] }
        let start = sorted.firstIndex { $0 > cursor } ?? 0
        let slice = (0..<min(count, sorted.count)).map { sorted[(start + $0) % sorted.count] }
        cursor = slice.last ?? ""
        // Asked all at once (a padding server answers the batch in about the time of one), applied in order.
        let statuses = try await withThrowingTaskGroup(of: (String, String?).self) { group in
            for scripthash in slice {
                group.addTask {
                    (
                        scripthash,
                        try await self.call("blockchain.scripthash.subscribe", [.string(scripthash)]).stringValue
                    )
                }
            }
            var answers: [String: String?] = [:]
            for try await (scripthash, status) in group { answers[scripthash] = .some(status) }
            return answers
        }
        var events: [PushEvent] = []
        for scripthash in slice {
            guard let status = statuses[scripthash] else { continue }
            followed[scripthash]?.answeredAt = now
            events += try await changed(scripthash, status: status)
        }
        return events
    }

    /// The history as txid → height, and as the provider reads it (`nil` when an entry does not read as one).
    private func history(_ scripthash: String) async throws -> ([String: Int], [ElectrumProvider.HistoryEntry]?) {
        let result = try await call("blockchain.scripthash.get_history", [.string(scripthash)])
        let read = ElectrumProvider.historyEntries(result)
        var history: [String: Int] = [:]
        for item in result.arrayValue ?? [] {
            guard let txid = item["tx_hash"]?.stringValue, case .number(let text)? = item["height"],
                let height = Int(text)
            else { continue }
            history[txid] = height
        }
        return (history, read)
    }
}
