import Crypto
import Testing
import WatcherBitcoin

@Suite("BIP389 multipath descriptors")
struct MultipathTests {
    struct Vectors: Decodable {
        struct Valid: Decodable {
            let descriptor: String
            let expandsTo: [String]
            let containsPrivateKey: Bool
            let hardenedStepAfterExtendedKey: Bool
            let checksumComputed: String
            let scriptsComputed: [[String]]?
        }
        struct Invalid: Decodable {
            let labelInBip: String
            let descriptor: String
        }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    @Test("descriptors_bip389_multipath_vectors.json: expansions in order, scripts per branch, invalid forms")
    func bip389() throws {
        let fixture = try Fixture.load(Vectors.self, "descriptors_bip389_multipath_vectors")
        #expect(fixture.valid.count == 6)
        var expanded = 0
        for vector in fixture.valid {
            #expect(DescriptorChecksum.checksum(vector.descriptor) == vector.checksumComputed)
            let result = Result { () throws(DescriptorError) in try Descriptor(vector.descriptor, network: .mainnet) }
            if vector.containsPrivateKey {
                guard case .failure(.privateKey) = result else {
                    Issue.record("\(vector.descriptor): \(result)")
                    continue
                }
                continue
            }
            let descriptor = try result.get()
            #expect(descriptor.branchCount == vector.expandsTo.count)
            let branches = descriptor.branches()
            #expect(branches.map(\.body) == vector.expandsTo, "\(vector.descriptor)")
            let scripts = try #require(vector.scriptsComputed)
            for (branch, expected) in scripts.enumerated() {
                for (index, script) in expected.enumerated() {
                    let viaTuple = try descriptor.scriptPubKey(branch: branch, index: UInt32(index))
                    let viaExpansion = try branches[branch].scriptPubKey(index: UInt32(index))
                    #expect(Hex.encode(viaTuple) == script, "\(vector.descriptor) branch \(branch) at \(index)")
                    #expect(viaExpansion == viaTuple)
                }
            }
            expanded += 1
        }
        #expect(expanded == 5)
        #expect(fixture.invalid.count == 8)
        let expected: [String: (DescriptorError) -> Bool] = [
            "Multiple multipath specifiers": { $0 == .multipleMultipath },
            "Multipath specifier in origin": { $0 == .multipathInOrigin },
            "Empty multipath specifier": { $0 == .invalidMultipath("it is empty") },
            "Missing multipath start": { $0 == .invalidMultipath("missing '<'") },
            "Missing multipath end": { $0 == .invalidMultipath("missing '>'") },
            "Missing index in multipath specifier": { $0 == .invalidMultipath("an index is missing") },
        ]
        for vector in fixture.invalid {
            let error = try #require(
                thrownError(DescriptorError.self) { _ = try Descriptor(vector.descriptor, network: .mainnet) },
                "\(vector.labelInBip)"
            )
            if vector.labelInBip == "Multipath specifiers of mismatched lengths" {
                // The tr() one also has a script tree, refused first; the sh(multi) one is the mismatch itself.
                #expect(error == .multipathLengthMismatch(3, 2) || error == .scriptTreeNotSupported, "\(error)")
            } else {
                let check = try #require(expected[vector.labelInBip], "\(vector.labelInBip)")
                #expect(check(error), "\(vector.labelInBip): \(error)")
            }
        }
    }

    @Test("Wallets need exactly two branches; other tuple lengths are refused")
    func walletBranches() throws {
        let xpub =
            "xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB"
        let three = thrownError(WalletError.self) {
            _ = try WalletDescriptor(parsing: "wpkh(\(xpub)/<0;1;2>/*)", network: .mainnet)
        }
        #expect(three == .branchCount(3))
        let notRanged = thrownError(WalletError.self) {
            _ = try WalletDescriptor(parsing: "wpkh(\(xpub)/<0;1>)", network: .mainnet)
        }
        #expect(notRanged == .notRanged)
        let single = try WalletDescriptor(parsing: "wpkh(\(xpub)/0/*)", network: .mainnet)
        #expect(single.change == nil)
        #expect(thrownError(WalletError.self) { _ = try single.address(.change, index: 0) } == .noChangeBranch)
        let swapped = try WalletDescriptor(parsing: "wpkh(\(xpub)/<1;0>/*)", network: .mainnet)
        let normal = try WalletDescriptor(parsing: "wpkh(\(xpub)/<0;1>/*)", network: .mainnet)
        #expect(try swapped.address(.receive, index: 5).scriptPubKey == normal.address(.change, index: 5).scriptPubKey)
        let duplicate = thrownError(DescriptorError.self) {
            _ = try Descriptor("wpkh(\(xpub)/<0;0>/*)", network: .mainnet)
        }
        #expect(duplicate == .invalidMultipath("index 0 appears twice"))
        let one = thrownError(DescriptorError.self) { _ = try Descriptor("wpkh(\(xpub)/<0>/*)", network: .mainnet) }
        #expect(one == .invalidMultipath("it needs at least two indices"))
    }
}

extension MultipathTests {
    @Test("sortedmulti() is multi() over the BIP67-sorted keys of the BIP389 multi() vector")
    func sortedMulti() throws {
        let fixture = try Fixture.load(Vectors.self, "descriptors_bip389_multipath_vectors")
        let vector = try #require(fixture.valid.first { $0.descriptor.hasPrefix("multi(") })
        let sorted = try Descriptor("wsh(sorted" + vector.descriptor + ")", network: .mainnet)
        let bare = try Descriptor("sorted" + vector.descriptor, network: .mainnet)
        for (branch, scripts) in try #require(vector.scriptsComputed).enumerated() {
            for (index, script) in scripts.enumerated() {
                // multi(2,A,B): 52 21 A 21 B 52 ae; sortedmulti orders A and B by their bytes.
                let bytes = bytes(script)
                let keys = [Array(bytes[2..<35]), Array(bytes[36..<69])].sorted { $0.lexicographicallyPrecedes($1) }
                let expected = [0x52, 0x21] + keys[0] + [0x21] + keys[1] + [0x52, 0xae]
                #expect(try bare.scriptPubKey(branch: branch, index: UInt32(index)) == expected)
                #expect(
                    try sorted.scriptPubKey(branch: branch, index: UInt32(index)) == [0x00, 0x20]
                        + Array(SHA256.hash(data: expected))
                )
            }
        }
    }
}
