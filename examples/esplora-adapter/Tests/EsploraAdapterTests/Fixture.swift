import Foundation
import Testing
import WatcherTesting

/// This package's copies of the shared Esplora fixtures (see `Fixtures/esplora/SOURCES.md`).
enum Fixture {
    static func bytes(_ name: String) throws -> [UInt8] {
        let root = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/esplora")
        return Array(try Data(contentsOf: root.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    /// A recorded body, with electrs' content type: JSON for `.json` files, plain text for `.txt`.
    static func answer(_ name: String, status: Int = 200, headers: [(name: String, value: String)] = []) throws
        -> FixtureServer.Answer
    {
        let type = name.hasSuffix(".json") ? "application/json" : "text/plain"
        return FixtureServer.Answer(status: status, body: try bytes(name), headers: [("Content-Type", type)] + headers)
    }

    /// The block at 363,366 and the taproot address of `address-txs-bc1pqu8j-taproot-2tx.json`.
    static let blockHash = "000000000000000015dc777b3ff2611091336355d3f0ee9766a2cf3be8e4b1ce"
    static let taproot = "bc1pqu8j3dlfwjkzt6tcx6w2dvf9j4wxku2n7mnp9eawegayu6k6x9xsgsff7n"
    static let basic = "bc1q90ly9f57xa6349nhdjq4zwguq4w2rdrqgfgtd7"
    static let multisigTx = "01c0cf156d8d7396358c60533d03cd0a5ee6ccdabc3b724eddc02e5e6068908f"

    /// Routes for every recorded body, by the path electrs serves it at.
    static func routes() throws -> [String: FixtureServer.Answer] {
        let routes: [String: FixtureServer.Answer] = [
            "/blocks/tip/height": try answer("blocks-tip-height.txt"),
            "/block-height/698767": try answer("blocks-tip-hash.txt"),
            "/block-height/363366": .text(blockHash, headers: [("Content-Type", "text/plain")]),
            "/block/\(blockHash)": try answer("block-363366.json"),
            "/address/\(basic)": try answer("address-bc1q90ly-basic.json"),
            "/address/1wiz18xYmhRX6xStj2b9t1rwWX4GKUgpv": try answer("address-1wiz-sums-above-2e32.json"),
            "/address/\(taproot)/txs": try answer("address-txs-bc1pqu8j-taproot-2tx.json"),
            "/tx/\(multisigTx)": try answer("tx-01c0cf15-p2wsh-multisig-input-p2pkh-outputs.json"),
            "/tx/3bbb2f597e714257d4a2f573e9ebfff4ab631277186a40875dbbf4140e90b748": try answer(
                "tx-3bbb2f59-op-return-p2pkh.json"
            ),
            "/tx/20b984492b5264162a4c92c9a34bc7fa08b67d669de7b4c5982ad3cb28aaecf6": try answer(
                "tx-20b98449-runes-op-return-unknown-witness-v1-sigops.json"
            ),
            "/tx/b779bc24f17f0cea8dc556d4d1301642986517bfbbc631eab8a6454fca1202bb": try answer(
                "error-transaction-not-found-404.txt",
                status: 404
            ),
        ]
        return routes
    }
}
