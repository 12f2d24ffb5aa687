import Foundation
import Testing
import WatcherFuzzing

/// Every committed fuzzing input (the seed corpora and every input that ever crashed a harness) replayed through
/// the same harness functions `watcher-fuzz` runs under libFuzzer: a regression of a fixed crash fails here.
@Suite struct FuzzCorpusTests {
    static var fuzz: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz")
    }

    static func inputs(_ folder: String, _ harness: FuzzHarness) -> [URL] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(harness.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// `scripts/fuzz.sh` runs the harnesses the folders of `Fuzz/corpus/` name: they must be exactly the harnesses.
    @Test func corpusFoldersAreTheHarnesses() throws {
        let corpus = Self.fuzz.appendingPathComponent("corpus").path
        let folders = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(FuzzHarness.allCases.map(\.rawValue)))
    }

    @Test(arguments: FuzzHarness.allCases)
    func everyCommittedInputRunsWithoutACrash(_ harness: FuzzHarness) throws {
        let corpus = Self.inputs("corpus", harness)
        #expect(!corpus.isEmpty, "no seed corpus for \(harness.rawValue)")
        for file in corpus + Self.inputs("crashes", harness) {
            harness.run(Array(try Data(contentsOf: file)))
        }
    }
}
