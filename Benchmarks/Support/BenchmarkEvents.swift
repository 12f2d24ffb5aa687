import Foundation

/// What the delivery benchmarks (`watcher-delivery-bench`, `watcher-postgres-bench`) append and deliver, so that
/// their figures in `docs/benchmarks.md` are for the same events.
public enum BenchmarkEvents {
    /// The event type every benchmark event has.
    public static let type = "address.tx.confirmed"

    /// A CloudEvents envelope of about 400 bytes, like an `address.tx.confirmed`, with id `evt_<n>`.
    public static func envelope(_ n: Int) -> [UInt8] {
        let txid = String(repeating: String(format: "%08x", n), count: 8)
        return Array(
            (#"{"data":{"address":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq","balanceSat":2150000,"blockHeight":871234,"#
                + #""chain":"btc","confirmations":1,"deltaBtc":"0.00150000","deltaSat":150000,"label":"Savings","#
                + #""txid":"\#(txid)"},"datacontenttype":"application/json","id":"evt_\#(n)","#
                + #""source":"watcher/savings","specversion":"1.0","subject":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq","#
                + #""time":"2026-11-21T10:00:00Z","type":"address.tx.confirmed"}"#).utf8
        )
    }

    /// A new empty directory under the system's temporary directory, named `<prefix>-<UUID>`.
    public static func temporaryDirectory(_ prefix: String) throws -> String {
        let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
