extension BitcoinAddress {
    /// The address that pays to a scriptPubKey, when the script has one.
    ///
    /// Recognises P2PKH (`76 a9 14 <20> 88 ac`), P2SH (`a9 14 <20> 87`) and segwit outputs (`OP_0` or
    /// `OP_1`…`OP_16`, then one push of 2 to 40 bytes; 20 or 32 bytes for v0). Base58 addresses on
    /// ``Network/regtest`` report ``Network/testnet``, as parsing does.
    /// - Parameters:
    ///   - script: the output script.
    ///   - network: the network whose version bytes or prefix to use.
    /// - Returns: the address, or `nil` for other scripts (bare keys, multisig, data).
    public init?(scriptPubKey script: [UInt8], network: Network) {
        let base58Network: Network = network == .mainnet ? .mainnet : .testnet
        if script.count == 25, script.starts(with: [0x76, 0xa9, 0x14]), script[23] == 0x88, script[24] == 0xac {
            let hash = Array(script[3..<23])
            let version: UInt8 = network == .mainnet ? 0x00 : 0x6f
            self.init(
                string: Base58.encodeCheck(version: version, payload: hash),
                network: base58Network,
                kind: .p2pkh,
                program: hash
            )
            return
        }
        if script.count == 23, script.starts(with: [0xa9, 0x14]), script[22] == 0x87 {
            let hash = Array(script[2..<22])
            let version: UInt8 = network == .mainnet ? 0x05 : 0xc4
            self.init(
                string: Base58.encodeCheck(version: version, payload: hash),
                network: base58Network,
                kind: .p2sh,
                program: hash
            )
            return
        }
        guard (4...42).contains(script.count), Int(script[1]) == script.count - 2 else { return nil }
        let version: UInt8
        switch script[0] {
        case 0x00: version = 0
        case 0x51...0x60: version = script[0] - 0x50
        default: return nil
        }
        let program = Array(script[2...])
        if version == 0 && program.count != 20 && program.count != 32 { return nil }
        let kind: Kind =
            switch (version, program.count) {
            case (0, 20): .p2wpkh
            case (0, _): .p2wsh
            case (1, 32): .p2tr
            default: .witnessUnknown(version: version)
            }
        self.init(
            string: Bech32.segwitAddress(hrp: network.hrp, version: version, program: program),
            network: network,
            kind: kind,
            program: program
        )
    }
}
