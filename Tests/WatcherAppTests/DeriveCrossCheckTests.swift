import Foundation
import Testing
import WatcherTestSupport
import WatcherTesting

/// `scripts/derive-check.py`: BIP32 CKDpub, the BIP341 tweak, the six wallet scripts and their address encodings,
/// written from the BIPs in Python over python-ecdsa's curve arithmetic (no code shared with WatcherBitcoin), against
/// `watcher wallets derive --json` on random account keys of every type, both branches.
@Suite struct DeriveCrossCheckTests {
    @Test("20 random keys per wallet type: every address and scriptPubKey agrees with scripts/derive-check.py")
    func randomKeysAgreeWithAnIndependentImplementation() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let python = ProcessInfo.processInfo.environment["WATCHER_PYTHON"] ?? "/usr/bin/python3"
        let outcome = try await ProcessRunner.run([
            python, repository.appendingPathComponent("scripts/derive-check.py").path,
            "--watcher", WatcherProcess.executable.path, "--keys", "20", "--count", "5",
        ])
        #expect(outcome.status == 0, "\(outcome.output)")
        // 9 wallet types × 20 keys × 2 branches × 5 addresses, every one compared.
        let last = outcome.output.split(separator: "\n").last.map(String.init)
        #expect(last == "1800 passed, 0 failed", "\(outcome.output)")
    }
}
