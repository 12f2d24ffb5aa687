import WatcherCore

/// The gap window of one branch of a wallet, as pure rules over ``WalletState/Window``.
///
/// The invariant: `derivedUpTo ≥ max(lastUsed, lastIssued) + gap`, i.e. `gap` consecutive addresses past the last
/// used or issued one are always in the script index (indices `0...gap-1` while nothing is used or issued). A
/// window never shrinks: a reorg that removes the payment which raised `lastUsed` leaves it as it is.
public enum WalletWindow {
    /// The highest BIP32 non-hardened index.
    public static let maxIndex = Int(Int32.max)

    /// The highest index the window must reach: `max(lastUsed, lastIssued) + gap` (`gap - 1` with neither).
    public static func target(_ window: WalletState.Window, gap: Int) -> Int {
        min(maxIndex, max(window.lastUsed ?? -1, window.lastIssued ?? -1) + gap)
    }

    /// The indices to derive and add to the script index for the invariant to hold, or `nil` when it holds.
    public static func missing(_ window: WalletState.Window, gap: Int) -> ClosedRange<Int>? {
        let first = (window.derivedUpTo ?? -1) + 1
        let last = target(window, gap: gap)
        return first <= last ? first...last : nil
    }

    /// Records a transaction seen at `index`: `lastUsed` only grows.
    public static func used(_ window: WalletState.Window, index: Int) -> WalletState.Window {
        var window = window
        window.lastUsed = max(window.lastUsed ?? index, index)
        return window
    }

    /// Records `index` as handed out: `lastIssued` only grows.
    public static func issued(_ window: WalletState.Window, index: Int) -> WalletState.Window {
        var window = window
        window.lastIssued = max(window.lastIssued ?? index, index)
        return window
    }

    /// Records that the scripts up to `index` are in the index: `derivedUpTo` only grows.
    public static func derived(_ window: WalletState.Window, upTo index: Int) -> WalletState.Window {
        var window = window
        window.derivedUpTo = max(window.derivedUpTo ?? index, index)
        return window
    }

    /// Records that every index up to `index` had its history checked: `checkedUpTo` only grows.
    public static func checked(_ window: WalletState.Window, upTo index: Int) -> WalletState.Window {
        var window = window
        window.checkedUpTo = max(window.checkedUpTo ?? index, index)
        return window
    }

    /// The index `watcher wallets next` hands out: the lowest above both the last used and the last issued one.
    public static func nextToIssue(_ window: WalletState.Window) -> Int {
        min(maxIndex, max(window.lastUsed ?? -1, window.lastIssued ?? -1) + 1)
    }

    /// The indices whose history is not checked yet, up to what is derived.
    public static func unchecked(_ window: WalletState.Window) -> ClosedRange<Int>? {
        let first = (window.checkedUpTo ?? -1) + 1
        guard let last = window.derivedUpTo, first <= last else { return nil }
        return first...last
    }
}
