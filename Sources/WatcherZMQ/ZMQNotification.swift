/// What a `hashblock` or `sequence` message says. The watcher takes it as a hint ("the tip or the mempool may
/// have changed: poll now"), never as the truth.
public enum ZMQNotification: Sendable, Hashable {
    /// `hashblock`: the new tip's hash.
    case hashBlock(String)
    /// `sequence` `C`: a block connected.
    case blockConnected(String)
    /// `sequence` `D`: a block disconnected.
    case blockDisconnected(String)
    /// `sequence` `A`: a transaction entered the mempool, with the mempool sequence.
    case mempoolAdded(txid: String, mempoolSequence: UInt64)
    /// `sequence` `R`: a transaction left the mempool other than by a block.
    case mempoolRemoved(txid: String, mempoolSequence: UInt64)
    /// Any other topic (`rawtx`, `hashtx`, `rawblock`): noted, not read.
    case other(topic: String)

    /// Reads a message's body.
    /// - Throws: ``ZMQMessage/Malformed`` for a body of the wrong size or label.
    public init(_ message: ZMQMessage) throws(ZMQMessage.Malformed) {
        let body = message.body
        switch message.topic {
        case "hashblock":
            guard body.count == 32 else { throw .init(reason: "a \(body.count)-byte hashblock body, expected 32") }
            self = .hashBlock(Self.hex(body))
        case "sequence":
            guard body.count >= 33 else { throw .init(reason: "a \(body.count)-byte sequence body") }
            let hash = Self.hex(body[0..<32])
            let label = body[32]
            switch (label, body.count) {
            case (UInt8(ascii: "C"), 33): self = .blockConnected(hash)
            case (UInt8(ascii: "D"), 33): self = .blockDisconnected(hash)
            case (UInt8(ascii: "A"), 41), (UInt8(ascii: "R"), 41):
                let sequence = body[33..<41].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                self =
                    label == UInt8(ascii: "A")
                    ? .mempoolAdded(txid: hash, mempoolSequence: sequence)
                    : .mempoolRemoved(txid: hash, mempoolSequence: sequence)
            default:
                throw .init(reason: "sequence label \(Character(Unicode.Scalar(label))) with \(body.count) bytes")
            }
        default:
            self = .other(topic: message.topic)
        }
    }

    /// Whether it says something about blocks (else the mempool, or nothing the watcher reads).
    public var isBlock: Bool {
        switch self {
        case .hashBlock, .blockConnected, .blockDisconnected: true
        default: false
        }
    }

    /// Hashes travel in the order RPC prints them (bitcoin/bitcoin#31856): hex-encoded as they come.
    static func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
