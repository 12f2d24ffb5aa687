// A child process for the storage crash tests. Modes:
//   commit-loop PATH          commit batches of 100 keys forever, printing "committed N" after each commit
//   hold-write PATH BATCHES   commit BATCHES batches, then write half of the next one and block inside the txn
//   hold-read PATH            open a read transaction and block inside it
//   read PATH KEY             print the value of KEY in table "kv", or "absent"
import Foundation
import WatcherStorage

// Lines are flushed as written: the parent reads progress from the pipe.
func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: watcher-test-helper MODE PATH [ARG]\n".utf8))
    exit(2)
}
let mode = arguments[1]
let path = arguments[2]

func batchKey(_ batch: Int, _ item: Int) -> [UInt8] {
    Array("batch/".utf8) + UInt32(batch).bigEndianBytes + UInt32(item).bigEndianBytes
}

do {
    let env = try Environment(path: path, options: .init(readOnly: mode == "read"))
    let db = try env.openDatabases(["kv"])["kv"]!
    switch mode {
    case "commit-loop", "hold-write":
        let limit = mode == "hold-write" ? Int(arguments[3]) ?? 5 : Int.max
        var batch = 0
        while batch < limit {
            try env.writeSync { txn in
                for item in 0..<100 {
                    try txn.put(db, batchKey(batch, item), Array(repeating: UInt8(batch % 251), count: 64))
                }
            }
            say("committed \(batch)")
            batch += 1
        }
        try env.writeSync { txn in
            for item in 0..<50 { try txn.put(db, batchKey(batch, item), [1]) }
            say("holding \(batch)")
            while true { sleep(60) }
        }
    case "hold-read":
        try env.read { _ in
            say("reading")
            while true { sleep(60) }
        }
    case "read":
        let value = try env.read { try $0.get(db, Array(arguments[3].utf8)) }
        say(value.map { String(decoding: $0, as: UTF8.self) } ?? "absent")
    default:
        FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
