import Foundation
import WatcherCore
import WatcherHTTP

/// Discovering the node's ZMQ endpoint (`zmq: auto`).
extension BitcoindProvider {
    /// The endpoint publishing `hashblock` (else `sequence`) in `getzmqnotifications`; a wildcard host (`0.0.0.0`,
    /// `*`, `[::]`) is replaced with `host`, the RPC URL's.
    /// - Throws: when the node publishes neither topic (started without `-zmqpubhashblock`/`-zmqpubsequence`).
    public func zmqEndpoint(host: String) async throws -> String {
        let rows = try await rpc.call("getzmqnotifications", what: "ZMQ notifications").array()
        var found: [String: String] = [:]
        for row in rows {
            found[try row.required("type").string()] = try row.required("address").string()
        }
        guard let address = found["pubhashblock"] ?? found["pubsequence"] else {
            throw ProviderError.unavailable(
                provider: id,
                status: nil,
                detail: "ZMQ: the node publishes neither hashblock nor sequence (start it with "
                    + "-zmqpubhashblock=tcp://127.0.0.1:28332 and -zmqpubsequence=tcp://127.0.0.1:28332)"
            )
        }
        for wildcard in ["//0.0.0.0:", "//*:", "//[::]:"] where address.contains(wildcard) {
            return address.replacingOccurrences(of: wildcard, with: "//\(host):")
        }
        return address
    }
}
