import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherJSON

extension ElectrumProvider {
    /// The most headers asked in one `blockchain.block.headers` (the protocol's own cap is 2016).
    static var maxHeaders: Int { 2016 }

    /// Up to `count` headers from `height` upward in one `blockchain.block.headers` (``ChainCapabilities/headerBatch``):
    /// `{count, hex, max}` below protocol 1.6 (the 80-byte headers concatenated), `{count, headers[], max}` from 1.6.
    /// Heights past the server's tip are left out. As with ``block(_:)``, the transaction count is not known.
    public func headers(from height: Int, count: Int) async throws -> [BlockHeader] {
        guard count > 0 else { return [] }
        guard height >= 0 else { throw ProviderError.badRequest(provider: id, detail: "height \(height) is below 0") }
        let asked = min(count, Self.maxHeaders)
        let what = "block.headers \(height) +\(asked)"
        let result = try await link.call("blockchain.block.headers", [.number("\(height)"), .number("\(asked)")])
        let hexes: [String]
        if let list = result["headers"]?.arrayValue {
            hexes = try list.map {
                guard let hex = $0.stringValue else { throw invalid("\(what): a header that is not hex") }
                return hex
            }
        } else if let joined = result["hex"]?.stringValue {
            guard joined.utf8.count.isMultiple(of: 160) else {
                throw invalid("\(what): \(joined.utf8.count) hex digits, not a multiple of 160 (80-byte headers)")
            }
            let characters = Array(joined.utf8)
            hexes = stride(from: 0, to: characters.count, by: 160).map {
                String(decoding: characters[$0..<$0 + 160], as: UTF8.self)
            }
        } else {
            throw invalid("\(what) answered \(Self.clip(result)), not {count, hex} or {count, headers}")
        }
        guard hexes.count <= asked else { throw invalid("\(what): \(hexes.count) headers for \(asked) asked") }
        var headers: [BlockHeader] = []
        for (offset, hex) in hexes.enumerated() {
            let parsed = try header(hex: hex, height: height + offset, what: what)
            if let previous = headers.last, previous.hash != parsed.header.previousBlockHash.displayHex {
                throw invalid("\(what): header \(height + offset) does not follow header \(previous.height)")
            }
            headers.append(blockHeader(parsed))
        }
        return headers
    }

    /// A parsed 80-byte header as the engine takes it: the transaction count is not in it.
    func blockHeader(_ parsed: ElectrumCache.Header) -> BlockHeader {
        BlockHeader(
            hash: parsed.hash,
            height: parsed.height,
            time: Date(timeIntervalSince1970: TimeInterval(parsed.header.time)),
            merkleRoot: parsed.header.merkleRoot.displayHex,
            nonce: parsed.header.nonce,
            // An Electrum server serves the 80-byte header only: the count is not known.
            txCount: nil,
            previousHash: parsed.header.previousBlockHash.displayHex
        )
    }
}
