import ArgumentParser
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// `watcher wallets derive`: the addresses of an output descriptor or a bare extended public key, worked out
/// offline. It reads no config and opens no data directory.
struct WalletsDeriveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "derive",
        abstract: "Print the addresses of a descriptor or an extended public key (offline: no config, no data).",
        discussion: """
            The wallet is an output descriptor (pkh, sh(wpkh), wpkh, tr, wsh(sortedmulti), sh(wsh(sortedmulti)), \
            e.g. wpkh([73c5da0a/84h/0h/0h]xpub…/<0;1>/*)) or a bare account key, whose prefix picks the script: \
            xpub/tpub P2PKH, ypub/upub P2SH-P2WPKH, zpub/vpub P2WPKH, with receive 0/* and change 1/*.
            Prints the normalised descriptor with its checksum, then one line per address: index, path (from the \
            master key when the key origin is given, else from the key), address.
            Private keys are refused (watch-only). A master key (depth 0) is accepted with a warning.
            Exit codes: 0 ok, 2 bad usage or bad input.
            """
    )

    /// The network the keys belong to and the addresses are written for.
    enum NetworkName: String, ExpressibleByArgument, CaseIterable {
        /// Mainnet: xpub/ypub/zpub keys, bc1 and 1…/3… addresses.
        case main
        /// Testnet3, testnet4 and signet: tpub/upub/vpub keys, tb1 and m…/n…/2… addresses.
        case test
        /// Regtest: the test keys (tpub/upub/vpub), bcrt1 segwit addresses, Base58 addresses as on testnet.
        case regtest

        var network: BitcoinAddress.Network {
            switch self {
            case .main: .mainnet
            case .test: .testnet
            case .regtest: .regtest
            }
        }
    }

    /// The branch to derive.
    enum BranchName: String, ExpressibleByArgument, CaseIterable {
        case receive, change

        var branch: WalletDescriptor.Branch { self == .receive ? .receive : .change }
    }

    /// The most addresses one run prints.
    static let maxCount = 10_000
    /// 2^31 - 1, the last non-hardened index: `--from` + `--count` - 1 is at most this.
    static let indexLimit = Int(Int32.max)

    @Argument(
        help: ArgumentHelp(
            "An output descriptor, or an extended public key (xpub/ypub/zpub, tpub/upub/vpub).",
            valueName: "descriptor|xpub"
        )
    )
    var wallet: String

    @Option(help: "The branch: receive or change.")
    var branch: BranchName = .receive

    @Option(help: "The first index, 0 to 2^31 minus --count (the last one printed is at most 2^31-1).")
    var from = 0

    @Option(help: "How many addresses, 1 to 10000.")
    var count = 20

    @Option(
        help: """
            main, test (testnet and signet: tpub/upub/vpub keys, tb1 addresses) or regtest (the test keys, bcrt1 \
            addresses).
            """
    )
    var network: NetworkName = .main

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard (1...Self.maxCount).contains(count) else {
            throw ValidationError("--count must be between 1 and \(Self.maxCount), not \(count)")
        }
        // The last index printed, `from + count - 1`, may be the last non-hardened one, 2^31-1.
        let lastFrom = Self.indexLimit + 1 - count
        guard (0...lastFrom).contains(from) else {
            throw ValidationError(
                "--from must be between 0 and \(lastFrom) (2^31 minus --count: the last index is at most 2^31-1), "
                    + "not \(from)"
            )
        }
    }

    func run() throws {
        // The argument is named by its kind in every message; the text itself is never repeated (it may be a key).
        let argument = wallet.contains("(") ? "descriptor" : "xpub"
        let parsed: WalletDescriptor
        do {
            parsed = try WalletDescriptor(parsing: wallet, network: network.network)
        } catch .empty {
            throw CommandFailure.usage(
                "the argument is empty: give an output descriptor or an extended public key (xpub/ypub/zpub, "
                    + "tpub/upub/vpub)"
            )
        } catch {
            throw CommandFailure.usage("\(argument): \(error.description)")
        }
        if parsed.hasMasterKey {
            Output.err(
                "warning: \(argument): the key is a master key (depth 0); wallets hand out account keys (depth 3, e.g. "
                    + "m/84'/0'/0'), so these addresses are rarely the wallet's"
            )
        }
        let addresses: [DerivedAddress]
        do {
            addresses = try (from..<(from + count)).map { index throws(WalletError) in
                try parsed.address(branch.branch, index: UInt32(index))
            }
        } catch .noChangeBranch {
            throw CommandFailure.usage("\(argument): \(WalletError.noChangeBranch.description)")
        } catch {
            // Only an index BIP32 says to skip gets here (a chance below 2^-127): the input is not at fault.
            throw CommandFailure.runtime("\(argument): \(error.description)")
        }
        if json {
            Output.out(Self.json(descriptor: parsed.descriptor, addresses: addresses).serialized(pretty: true))
            return
        }
        let rows = addresses.map { ["\($0.index)", $0.path.description, $0.address.string] }
        Output.out(parsed.descriptor.description + "\n" + ExplorerJSON.table(rows))
    }

    /// `{"descriptor": "body#checksum", "addresses": [{"branch", "index", "path", "address", "scriptPubKey"}]}`.
    static func json(descriptor: Descriptor, addresses: [DerivedAddress]) -> JSONValue {
        .object([
            .init("descriptor", .string(descriptor.description)),
            .init(
                "addresses",
                .array(
                    addresses.map { derived in
                        .object([
                            .init("branch", .string(derived.branch.description)),
                            .init("index", .number(String(derived.index))),
                            .init("path", .string(derived.path.description)),
                            .init("address", .string(derived.address.string)),
                            .init("scriptPubKey", .string(Hex.encode(derived.scriptPubKey))),
                        ])
                    }
                )
            ),
        ])
    }
}
