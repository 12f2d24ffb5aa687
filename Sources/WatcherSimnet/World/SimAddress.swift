import WatcherBitcoin
import WatcherCore

/// A Bitcoin address known to the simnet (of its network: mainnet or regtest), with the script it stands for.
public struct SimAddress: Sendable, Hashable {
    /// The script type behind an address.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Base58 pay-to-pubkey-hash (`1…`).
        case p2pkh
        /// Base58 pay-to-script-hash (`3…`).
        case p2sh
        /// Bech32 segwit v0 pay-to-witness-pubkey-hash (`bc1q…`, 42 characters).
        case p2wpkh
        /// Bech32 segwit v0 pay-to-witness-script-hash (`bc1q…`, 62 characters).
        case p2wsh
        /// Bech32m segwit v1 taproot (`bc1p…`).
        case p2tr
        /// Another witness version (v2 to v16), valid but not yet given meaning.
        case witnessUnknown
    }

    /// The address text, in canonical (lower-case for bech32) form.
    public let string: String
    /// The script type.
    public let kind: Kind
    /// The witness version for segwit kinds, `nil` for base58 kinds.
    public let witnessVersion: UInt8?
    /// The hash (base58 kinds) or witness program (segwit kinds).
    public let program: [UInt8]
    /// The network the address text is for.
    public let network: SimnetNetwork

    init(string: String, kind: Kind, witnessVersion: UInt8?, program: [UInt8], network: SimnetNetwork) {
        self.string = string
        self.kind = kind
        self.witnessVersion = witnessVersion
        self.program = program
        self.network = network
    }

    /// Builds an address of `kind` from its hash or program with WatcherCore's encoders.
    /// - Parameters:
    ///   - kind: `p2pkh`, `p2sh` (20-byte hash), `p2wpkh` (20 bytes), `p2wsh` or `p2tr` (32 bytes);
    ///     `witnessUnknown` encodes witness version 2.
    ///   - program: the hash or witness program.
    ///   - network: the network whose prefixes the text takes (mainnet by default).
    public init(kind: Kind, program: [UInt8], network: SimnetNetwork = .mainnet) {
        let hrp = network.addressNetwork.hrp
        switch kind {
        case .p2pkh, .p2sh:
            let version = kind == .p2pkh ? network.p2pkhVersion : network.p2shVersion
            self.init(
                string: Base58.encodeCheck(version: version, payload: program),
                kind: kind,
                witnessVersion: nil,
                program: program,
                network: network
            )
        case .p2wpkh, .p2wsh:
            self.init(
                string: Bech32.segwitAddress(hrp: hrp, version: 0, program: program),
                kind: kind,
                witnessVersion: 0,
                program: program,
                network: network
            )
        case .p2tr, .witnessUnknown:
            let version: UInt8 = kind == .p2tr ? 1 : 2
            self.init(
                string: Bech32.segwitAddress(hrp: hrp, version: version, program: program),
                kind: kind,
                witnessVersion: version,
                program: program,
                network: network
            )
        }
    }

    /// A fresh random address of `kind` on `network`, drawn from `rng`.
    static func random(_ kind: Kind, network: SimnetNetwork = .mainnet, using rng: inout SplitMixRandom) -> SimAddress {
        let length = kind == .p2tr || kind == .p2wsh ? 32 : 20
        return SimAddress(kind: kind, program: rng.bytes(length), network: network)
    }

    /// The simnet's view of an address WatcherCore decoded, valid on `network`.
    init(_ address: BitcoinAddress, network: SimnetNetwork) {
        let kind: Kind =
            switch address.kind {
            case .p2pkh: .p2pkh
            case .p2sh: .p2sh
            case .p2wpkh: .p2wpkh
            case .p2wsh: .p2wsh
            case .p2tr: .p2tr
            case .witnessUnknown: .witnessUnknown
            }
        self.init(
            string: address.string,
            kind: kind,
            witnessVersion: address.witnessVersion,
            program: address.program,
            network: network
        )
    }

    /// The same address as WatcherCore's ``BitcoinAddress``.
    var bitcoinAddress: BitcoinAddress {
        let coreKind: BitcoinAddress.Kind =
            switch kind {
            case .p2pkh: .p2pkh
            case .p2sh: .p2sh
            case .p2wpkh: .p2wpkh
            case .p2wsh: .p2wsh
            case .p2tr: .p2tr
            case .witnessUnknown: .witnessUnknown(version: witnessVersion ?? 2)
            }
        return BitcoinAddress(string: string, network: network.addressNetwork, kind: coreKind, program: program)
    }

    /// The scriptPubKey this address pays to.
    public var scriptPubKey: [UInt8] { bitcoinAddress.scriptPubKey }

    /// The scriptPubKey as lower-case hex.
    public var scriptHex: String { Hex.encode(scriptPubKey) }

    /// The descriptor type name Bitcoin Core prints in `scriptPubKey.type`.
    var coreTypeName: String {
        switch kind {
        case .p2pkh: "pubkeyhash"
        case .p2sh: "scripthash"
        case .p2wpkh: "witness_v0_keyhash"
        case .p2wsh: "witness_v0_scripthash"
        case .p2tr: "witness_v1_taproot"
        case .witnessUnknown: "witness_unknown"
        }
    }

    /// The assembly form of the scriptPubKey, as Bitcoin Core prints it.
    var scriptAsm: String {
        let hex = Hex.encode(program)
        switch kind {
        case .p2pkh: return "OP_DUP OP_HASH160 \(hex) OP_EQUALVERIFY OP_CHECKSIG"
        case .p2sh: return "OP_HASH160 \(hex) OP_EQUAL"
        case .p2wpkh, .p2wsh, .p2tr, .witnessUnknown:
            return "\(witnessVersion ?? 0) \(hex)"
        }
    }
}
