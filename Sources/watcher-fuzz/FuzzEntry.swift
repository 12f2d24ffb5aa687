import Foundation
import WatcherFuzzing

#if FUZZING
    /// The harness this libFuzzer binary runs, from `WATCHER_FUZZ_TARGET` (see `make fuzz`).
    nonisolated(unsafe) let harness: FuzzHarness = {
        let name = ProcessInfo.processInfo.environment["WATCHER_FUZZ_TARGET"] ?? ""
        guard let harness = FuzzHarness(rawValue: name) else {
            let known = FuzzHarness.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("WATCHER_FUZZ_TARGET must be one of: \(known)\n".utf8))
            exit(2)
        }
        return harness
    }()

    /// libFuzzer's entry point.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        harness.run(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// libFuzzer's driver (`extern "C" int LLVMFuzzerRunDriver(int *, char ***, callback)`).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: FuzzCallback
    ) -> CInt

    /// The process entry: SwiftPM links an executable target's `main` to `<target>_main`, so libFuzzer's own `main`
    /// is not used; this hands control to its driver.
    @_cdecl("watcher_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var argc = argc
        var argv = argv
        return runDriver(&argc, &argv) { data, size in
            guard let data else { return 0 }
            return fuzzOne(data, size)
        }
    }
#else
    /// Without the fuzzer: `watcher-fuzz HARNESS FILE...` replays files through a harness (a crash reproduces).
    @main
    enum Replay {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let harness = FuzzHarness(rawValue: name) else {
                let known = FuzzHarness.allCases.map(\.rawValue).joined(separator: " | ")
                print("usage: watcher-fuzz <\(known)> FILE...")
                exit(2)
            }
            for file in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("cannot read \(file)")
                    exit(1)
                }
                harness.run(Array(data))
            }
            print("\(harness.rawValue): \(arguments.count - 1) input(s), no crash")
        }
    }
#endif
