import Testing
import WatcherTesting

/// What `watcher wallets derive` says about an argument it cannot read: an empty one is named as empty, not read
/// as a key with a bad checksum.
struct WalletsDeriveMessagesTests {
    @Test("an empty argument is named as empty, not read as a key with a bad checksum")
    func emptyArgument() async throws {
        for text in ["", "  "] {
            let refused = try await WalletsDeriveTests.derive([text])
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("the argument is empty"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("checksum"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
    }
}
