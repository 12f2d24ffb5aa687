import Testing
import WatcherCore

@testable import WatcherRules

/// The gap window and block matching, on values alone, with a simple model of which indices are used as the
/// oracle.
struct WalletWindowTests {
    /// A fake script per address: what matching compares (the real derivation is tested in WatcherBitcoinTests).
    static func script(_ ref: WalletAddressRef) -> [UInt8] {
        Array(ref.wallet.utf8) + [0xff, ref.branch.number]
            + withUnsafeBytes(of: UInt32(ref.index).bigEndian, Array.init)
    }

    /// The script index holding every derived script of `wallets`.
    static func index(_ wallets: [String: WalletMatcher.Wallet]) -> [[UInt8]: WalletAddressRef] {
        var index: [[UInt8]: WalletAddressRef] = [:]
        for (id, wallet) in wallets {
            for (branch, window) in wallet.windows {
                guard let last = window.derivedUpTo else { continue }
                for i in 0...last {
                    let ref = WalletAddressRef(wallet: id, branch: branch, index: i)
                    index[script(ref)] = ref
                }
            }
        }
        return index
    }

    static func match(_ txs: [WalletMatcher.Tx], _ wallets: [String: WalletMatcher.Wallet]) throws
        -> WalletMatcher.Outcome
    {
        let index = Self.index(wallets)
        return try WalletMatcher.match(
            txs,
            wallets: wallets,
            lookup: { scripts in
                var found: [Int: WalletAddressRef] = [:]
                for (position, script) in scripts.enumerated() { found[position] = index[script] }
                return found
            },
            derive: { Self.script($0) }
        )
    }

    /// A wallet whose window holds the invariant after `lastUsed`.
    static func wallet(lastUsed: Int?, gap: Int) -> WalletMatcher.Wallet {
        var window = WalletState.Window(lastUsed: lastUsed)
        window.derivedUpTo = WalletWindow.target(window, gap: gap)
        return WalletMatcher.Wallet(windows: [.receive: window, .change: window], gap: gap)
    }

    static func payment(_ txid: String, _ branch: WalletBranch, _ index: Int, _ value: Int64 = 1_000)
        -> WalletMatcher.Tx
    {
        WalletMatcher.Tx(
            txid: txid,
            inputs: [.init(script: [0x00, 0x14] + Array(repeating: 7, count: 20), valueSat: value + 500)],
            outputs: [
                .init(script: script(WalletAddressRef(wallet: "shop", branch: branch, index: index)), valueSat: value)
            ]
        )
    }

    @Test func anEmptyWindowHoldsTheFirstGapIndices() {
        let window = WalletState.Window()
        #expect(WalletWindow.missing(window, gap: 20) == 0...19)
        #expect(WalletWindow.target(WalletState.Window(lastUsed: 39), gap: 20) == 59)
        #expect(WalletWindow.target(WalletState.Window(lastUsed: 3, lastIssued: 10), gap: 5) == 15)
        #expect(WalletWindow.nextToIssue(WalletState.Window(lastUsed: 3, lastIssued: 10)) == 11)
        #expect(WalletWindow.nextToIssue(WalletState.Window()) == 0)
        let derived = WalletWindow.derived(WalletState.Window(lastUsed: 39), upTo: 59)
        #expect(WalletWindow.missing(derived, gap: 20) == nil)
        // Never shrinks.
        #expect(WalletWindow.derived(derived, upTo: 10).derivedUpTo == 59)
        #expect(WalletWindow.used(derived, index: 5).lastUsed == 39)
    }

    /// With gap g after index L was used: a payment at L+g−1 and one at L+g are found, one at L+g+1 is not.
    @Test(arguments: [1, 2, 20, 100])
    func theGapsEdges(gap: Int) throws {
        let last = 39
        let wallets = ["shop": Self.wallet(lastUsed: last, gap: gap)]
        for (offset, found) in [(gap - 1, true), (gap, true), (gap + 1, false)] where offset > 0 {
            let outcome = try Self.match([Self.payment("t", .receive, last + offset)], wallets)
            #expect(outcome.matches.map(\.ref.index) == (found ? [last + offset] : []), "gap \(gap) offset \(offset)")
            if found {
                #expect(outcome.wallets["shop"]?.windows[.receive]?.derivedUpTo == last + offset + gap)
            }
        }
    }

    @Test func twoPaymentsInOneBlockBeyondTheFirstWindowAreBothFoundInEitherOrder() throws {
        let wallets = ["shop": Self.wallet(lastUsed: 39, gap: 20)]
        for order in [[59, 79], [79, 59]] {
            let txs = order.map { Self.payment("pay\($0)", .receive, $0) }
            let outcome = try Self.match(txs, wallets)
            #expect(Set(outcome.matches.map(\.ref.index)) == [59, 79])
            #expect(outcome.matches.allSatisfy { $0.deltaSat == 1_000 })
            #expect(outcome.wallets["shop"]?.windows[.receive]?.lastUsed == 79)
            #expect(outcome.wallets["shop"]?.windows[.receive]?.derivedUpTo == 99)
            #expect(outcome.passes == 3)
            #expect(outcome.derived.count == 40)
        }
    }

    @Test func aSpendWithItsChangeIsTwoMatchesWithTheirDeltas() throws {
        let from = WalletAddressRef(wallet: "shop", branch: .receive, index: 2)
        let change = WalletAddressRef(wallet: "shop", branch: .change, index: 0)
        let tx = WalletMatcher.Tx(
            txid: "spend",
            inputs: [.init(script: Self.script(from), valueSat: 100_000)],
            outputs: [
                .init(script: [0x51, 0x20] + Array(repeating: 9, count: 32), valueSat: 60_000),
                .init(script: Self.script(change), valueSat: 39_500),
                .init(script: nil, valueSat: 0),
            ]
        )
        var wallet = Self.wallet(lastUsed: 2, gap: 5)
        wallet.windows[.change] = WalletState.Window(derivedUpTo: 4)
        let outcome = try Self.match([tx], ["shop": wallet])
        let deltas = Dictionary(uniqueKeysWithValues: outcome.matches.map { ($0.ref, $0.deltaSat) })
        #expect(deltas == [from: -100_000, change: 39_500])
        #expect(outcome.wallets["shop"]?.windows[.change]?.derivedUpTo == 5)
    }

    @Test func anotherWalletsEntriesInTheIndexAreIgnored() throws {
        var wallets = ["shop": Self.wallet(lastUsed: nil, gap: 3), "gone": Self.wallet(lastUsed: nil, gap: 3)]
        let index = Self.index(wallets)
        wallets["gone"] = nil
        let tx = WalletMatcher.Tx(
            txid: "t",
            inputs: [],
            outputs: [.init(script: Self.script(.init(wallet: "gone", branch: .receive, index: 1)), valueSat: 5)]
        )
        let outcome = try WalletMatcher.match(
            [tx],
            wallets: wallets,
            lookup: { scripts in
                Dictionary(uniqueKeysWithValues: scripts.enumerated().compactMap { p, s in index[s].map { (p, $0) } })
            },
            derive: { Self.script($0) }
        )
        #expect(outcome.matches.isEmpty)
    }

    /// The oracle: with the window reaching `limit`, a used index at or below it pushes the limit to index + gap;
    /// repeated until it stops moving. Found = used indices at or below the final limit.
    static func oracle(lastUsed: Int?, gap: Int, used: [Int]) -> Set<Int> {
        var limit = (lastUsed ?? -1) + gap
        var moved = true
        while moved {
            moved = false
            for index in used where index <= limit && index + gap > limit {
                limit = index + gap
                moved = true
            }
        }
        return Set(used.filter { $0 <= limit })
    }

    @Test(arguments: Array(UInt64(1)...300))
    func randomBlocksMatchTheOracle(seed: UInt64) throws {
        var rng = SplitMixRandom(seed: seed)
        let gap = rng.element(of: [1, 2, 3, 5, 20])
        let lastUsed: Int? = rng.chance(0.3) ? nil : rng.next(in: 0...30)
        let wallets = ["shop": Self.wallet(lastUsed: lastUsed, gap: gap)]
        var used: [WalletBranch: [Int]] = [.receive: [], .change: []]
        var txs: [WalletMatcher.Tx] = []
        for n in 0..<rng.next(in: 1...12) {
            let branch: WalletBranch = rng.chance(0.5) ? .receive : .change
            let index = rng.next(in: 0...((lastUsed ?? 0) + 4 * gap + 4))
            used[branch, default: []].append(index)
            txs.append(Self.payment("t\(n)", branch, index))
        }
        txs.shuffle(using: &rng)
        let outcome = try Self.match(txs, wallets)
        for branch in WalletBranch.allCases {
            let expected = Self.oracle(lastUsed: lastUsed, gap: gap, used: used[branch] ?? [])
            let found = Set(outcome.matches.filter { $0.ref.branch == branch }.map(\.ref.index))
            #expect(found == expected, "seed \(seed) \(branch): gap \(gap) lastUsed \(lastUsed ?? -1)")
            let window = try #require(outcome.wallets["shop"]?.windows[branch])
            let highest = ([lastUsed].compactMap { $0 } + Array(expected)).max()
            #expect(window.lastUsed == highest)
            #expect((window.derivedUpTo ?? -1) >= (highest ?? -1) + gap)
            #expect(WalletWindow.missing(window, gap: gap) == nil)
        }
    }
}
