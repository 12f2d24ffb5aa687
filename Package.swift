// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The built-in provider adapters (`Providers/`, one target each).
let adapters: [Target.Dependency] = [
    "BlockbookAdapter", "RawAddrAdapter", "CoinDeskAdapter", "JSONPriceAdapter", "BitcoindAdapter", "ElectrumAdapter",
]

let package = Package(
    name: "watcher",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "watcher", targets: ["watcher"]),
        .library(name: "WatcherBitcoin", targets: ["WatcherBitcoin"]),
        .library(name: "WatcherCore", targets: ["WatcherCore"]),
        .library(name: "WatcherJSON", targets: ["WatcherJSON"]),
        .library(name: "WatcherConfiguration", targets: ["WatcherConfiguration"]),
        .library(name: "WatcherEventLog", targets: ["WatcherEventLog"]),
        .library(name: "WatcherStorage", targets: ["WatcherStorage"]),
        .library(name: "WatcherSinks", targets: ["WatcherSinks"]),
        .library(name: "WatcherDelivery", targets: ["WatcherDelivery"]),
        // For adapter authors (docs/writing-a-provider.md): the HTTP helper that maps transport failures to
        // ProviderError, the contract kit with its loopback simnet, and the CLI to link plugins of your own into.
        .library(name: "WatcherHTTP", targets: ["WatcherHTTP"]),
        .library(name: "WatcherSimnet", targets: ["WatcherSimnet"]),
        .library(name: "WatcherTesting", targets: ["WatcherTesting"]),
        .library(name: "WatcherPlugins", targets: ["WatcherPlugins"]),
        .library(name: "WatcherApp", targets: ["WatcherApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // TLS to Electrum servers (ssl://), already in the graph through async-http-client.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The simnet's self-signed certificate for its Electrum face over TLS (in the graph through swift-nio-ssl's users).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // libsecp256k1 (Debian's libsecp256k1-dev, with extrakeys): public key derivation, behind WatcherBitcoin's Secp256k1.
        .systemLibrary(
            name: "CSecp256k1",
            pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]
        ),
        // libzmq (Debian's libzmq3-dev): bitcoind's ZMQ notifications, behind WatcherZMQ's ZMQSocket. No pkgConfig:
        // Debian's libzmq.pc adds `-isystem` flags (Kerberos, PGM) that SwiftPM refuses with a warning, and zmq.h
        // and libzmq.so are on the default paths.
        .systemLibrary(
            name: "CZMQ",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // libqrencode (Debian's libqrencode-dev): the QR codes of payment requests, behind WatcherQR's QRCode.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // Bitcoin primitives: addresses (Base58Check, Bech32/m), `bitcoin:` URIs, hex, raw transactions and headers,
        // extended public keys and output descriptors (BIP32, SLIP-132, BIP380-389), RIPEMD-160.
        library("WatcherBitcoin", ["CSecp256k1", .crypto]),
        // Domain models and the plug points: ChainProvider, PriceProvider, Sink (with ManagedSink, DeliveryPolicy).
        // JSON that keeps numbers as their text (amounts are never read through Double), its parser and ISO 8601 times.
        library("WatcherJSON", []),
        library("WatcherCore", ["WatcherJSON", .logging, .httpTypes]),
        // Every pure decision of the engine (docs/architecture.md, "Where a change goes"): chain sync and reorgs, the
        // address, wallet, tx and price reducers, the gap window, agreement, round scheduling, event building. It
        // does no I/O and depends on nothing that does: its tests build and run without liblmdb, ZMQ or NIO.
        library("WatcherRules", ["WatcherJSON", "WatcherCore", "WatcherBitcoin", .crypto]),
        // config → registry → plan: loading watcher.json, the plugin registry and catalog, the job and budget plan.
        library("WatcherConfiguration", ["WatcherJSON", "WatcherCore", "WatcherBitcoin", .crypto]),
        // Metrics, /proc stats and the provider health board, read by the runtime (scheduler, engine, delivery).
        library("WatcherObservability", ["WatcherCore", .coreMetrics, .httpTypes]),
        // The scheduler runtime: per-provider lanes (token bucket, concurrency, circuit breaker), priorities, failover.
        library("WatcherScheduler", ["WatcherCore", "WatcherObservability", .logging, .serviceLifecycle]),
        library("WatcherStorage", ["CLMDB", "WatcherCore", .logging, .nioPosix, .serviceLifecycle, .asyncAlgorithms]),
        // The durable event log over the store: append with the state in one transaction, read from a cursor.
        library("WatcherEventLog", ["WatcherCore", "WatcherStorage"]),
        // ZMQ as a hint: a SUB socket on its own thread (bitcoind's hashblock/sequence), and the simnet's PUB.
        library("WatcherZMQ", ["CZMQ"]),
        // QR codes (libqrencode) as SVG and PNG: a payment request's bitcoin: URI on its web page.
        library("WatcherQR", ["CQRencode"]),
        library(
            "WatcherHTTP",
            [
                "WatcherJSON",
                "WatcherCore",
                .asyncHTTPClient,
                .nioCore,
                .httpTypes,
                .nioHTTP1,
                .serviceLifecycle,
                .logging,
            ]
        ),
        library("WatcherSinks", ["WatcherJSON", "WatcherCore", "WatcherHTTP", .crypto, .logging, .httpTypes]),
        // The storage-bound side of the sinks: a worker per sink reading the event log from its cursor, retries and
        // dead letters, log trimming.
        library(
            "WatcherDelivery",
            [
                "WatcherJSON",
                "WatcherCore",
                "WatcherConfiguration",
                "WatcherObservability",
                "WatcherStorage",
                "WatcherEventLog",
                .logging,
                .serviceLifecycle,
            ]
        ),
        library("WatcherPostgres", ["WatcherJSON", "WatcherCore", .postgresNIO, .nioCore, .logging]),
        library(
            "WatcherEngine",
            [
                "WatcherJSON",
                "WatcherBitcoin",
                "WatcherCore",
                "WatcherRules",
                "WatcherConfiguration",
                "WatcherObservability",
                "WatcherScheduler",
                "WatcherStorage",
                "WatcherEventLog",
                .crypto,
                .logging,
                .serviceLifecycle,
            ]
        ),
        // Payment requests and the receive addresses handed out (`wallets next`): the desk the CLI and API write
        // through, and the job that keeps requests current from what the engine committed (no provider of its own).
        library(
            "WatcherRequests",
            [
                "WatcherJSON", "WatcherBitcoin", "WatcherCore", "WatcherConfiguration", "WatcherRules",
                "WatcherEventLog", "WatcherObservability", "WatcherStorage", "WatcherEngine",
            ]
        ),
        library(
            "WatcherStatus",
            [
                "WatcherJSON",
                "WatcherBitcoin",
                "WatcherCore",
                "WatcherConfiguration",
                "WatcherRules",
                "WatcherQR",
                "WatcherObservability",
                "WatcherStorage",
                .crypto,
                .hummingbird,
                .httpTypes,
                .nioCore,
                .prometheus,
                .logging,
                .serviceLifecycle,
            ]
        ),
        library(
            "WatcherSimnet",
            [
                "WatcherJSON",
                "WatcherCore",
                "WatcherBitcoin",
                "WatcherZMQ",
                .hummingbird,
                .hummingbirdWebSocket,
                .nioWebSocket,
                .nioCore,
                .nioPosix,
                .nioSSL,
                .x509,
                .swiftASN1,
                .crypto,
                .logging,
                .serviceLifecycle,
            ]
        ),
        library(
            "BlockbookAdapter",
            [
                "WatcherJSON", "WatcherCore", "WatcherBitcoin", "WatcherHTTP", .httpTypes, .hummingbirdWSClient,
                .logging,
            ],
            path: "Providers/Blockbook"
        ),
        library(
            "BitcoindAdapter",
            ["WatcherJSON", "WatcherCore", "WatcherBitcoin", "WatcherHTTP", "WatcherZMQ", .httpTypes],
            path: "Providers/Bitcoind"
        ),
        library(
            "ElectrumAdapter",
            ["WatcherJSON", "WatcherCore", "WatcherBitcoin", .nioCore, .nioPosix, .nioSSL, .crypto, .logging],
            path: "Providers/Electrum"
        ),
        library(
            "RawAddrAdapter",
            ["WatcherJSON", "WatcherCore", "WatcherBitcoin", "WatcherHTTP", .httpTypes],
            path: "Providers/RawAddr"
        ),
        library(
            "CoinDeskAdapter",
            ["WatcherJSON", "WatcherCore", "WatcherHTTP", .httpTypes],
            path: "Providers/CoinDesk"
        ),
        library(
            "JSONPriceAdapter",
            ["WatcherJSON", "WatcherCore", "WatcherHTTP", .httpTypes],
            path: "Providers/JSONPrice"
        ),
        library(
            "WatcherTesting",
            [
                "WatcherCore",
                "WatcherHTTP",
                "WatcherSimnet",
                .asyncHTTPClient,
                .hummingbird,
                .httpTypes,
                .logging,
                .serviceLifecycle,
            ]
        ),
        // The catalog of built-in plugins, one list for the CLI and the config fuzzer.
        library(
            "WatcherPlugins",
            [
                "WatcherCore",
                "WatcherConfiguration",
                "WatcherSinks",
                "WatcherPostgres",
            ] + adapters
        ),
        library(
            "WatcherFuzzing",
            [
                "WatcherBitcoin",
                "WatcherCore",
                "WatcherConfiguration",
                "WatcherHTTP",
                "WatcherSinks",
                "WatcherPlugins",
            ] + adapters
        ),
        executable("watcher-fuzz", ["WatcherFuzzing"]),
        library(
            "WatcherApp",
            [
                "WatcherJSON",
                "WatcherBitcoin",
                "WatcherCore",
                "WatcherConfiguration",
                "WatcherObservability",
                "WatcherEventLog",
                "WatcherScheduler",
                "WatcherStorage",
                "WatcherHTTP",
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherEngine",
                "WatcherRequests",
                "WatcherStatus",
                "WatcherSimnet",
                "WatcherPlugins",
                .argumentParser,
                .serviceLifecycle,
                .unixSignals,
                .asyncHTTPClient,
                .prometheus,
                .logging,
            ]
        ),
        executable("watcher", ["WatcherApp"]),
        executable("watcher-bench", ["WatcherStorage", "CLMDB"], path: "Benchmarks/StorageBenchmark"),
        executable("watcher-wallet-bench", ["WatcherBitcoin"], path: "Benchmarks/WalletBenchmark"),
        executable(
            "watcher-wallet-scan-bench",
            [
                "WatcherBitcoin", "WatcherConfiguration", "WatcherCore", "WatcherEngine", "WatcherRules",
                "WatcherStorage",
            ],
            path: "Benchmarks/WalletScanBenchmark"
        ),
        // Payment requests at scale: creates, and one block settling requests among 10,000 open ones.
        executable(
            "watcher-request-bench",
            [
                "WatcherBitcoin", "WatcherCore", "WatcherEventLog", "WatcherJSON", "WatcherRequests", "WatcherRules",
                "WatcherStorage",
            ],
            path: "Benchmarks/RequestBenchmark"
        ),
        // A bitcoind block scan's local work: a raw block parsed and matched against followed addresses.
        executable(
            "watcher-rawblock-bench",
            ["WatcherBitcoin", "WatcherCore", "WatcherRules", "WatcherSimnet"],
            path: "Benchmarks/RawBlockBenchmark"
        ),
        // What the delivery benchmarks share: the event they append and a scratch directory.
        library("BenchmarkSupport", [], path: "Benchmarks/Support"),
        executable(
            "watcher-delivery-bench",
            [
                "BenchmarkSupport",
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherEventLog",
                "WatcherStorage",
                "WatcherCore",
                "WatcherHTTP",
                .hummingbird,
                .logging,
                .serviceLifecycle,
            ],
            path: "Benchmarks/DeliveryBenchmark"
        ),
        executable(
            "watcher-postgres-bench",
            [
                "BenchmarkSupport",
                "WatcherPostgres",
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherEventLog",
                "WatcherStorage",
                "WatcherCore",
                .postgresNIO,
                .logging,
                .serviceLifecycle,
            ],
            path: "Benchmarks/PostgresBenchmark"
        ),
        executable("watcher-test-helper", ["WatcherStorage"], path: "Tests/Helpers/TestHelper"),
        // The recorded provider bodies of Tests/ProviderTests/Fixtures (one copy), for every test target that reads them.
        library(
            "WatcherFixtures",
            [],
            path: "Tests/ProviderTests/Fixtures",
            resources: [.copy("blockbook"), .copy("price"), .copy("rawaddr")]
        ),
        // What the test targets share: temporary directories, free ports, a process runner that waits off the
        // concurrency threads, webhook receivers and event helpers. Internal: the public kit is WatcherTesting.
        library(
            "WatcherTestSupport",
            [
                "WatcherJSON",
                "WatcherCore", "WatcherDelivery", "WatcherEventLog", "WatcherHTTP", "WatcherObservability",
                "WatcherSinks", "WatcherStorage", "WatcherTesting", .asyncHTTPClient, .httpTypes, .hummingbird,
                .logging, .metricsTestKit, .serviceLifecycle,
            ],
            path: "Tests/Support/WatcherTestSupport"
        ),
        tests(
            "WatcherBitcoinTests",
            ["WatcherJSON", "WatcherBitcoin", "WatcherCore", .crypto],
            resources: [.copy("Fixtures")]
        ),
        tests(
            "WatcherCoreTests",
            ["WatcherJSON", "WatcherCore"]
        ),
        tests(
            "WatcherConfigurationTests",
            [
                "WatcherJSON", "WatcherBitcoin", "WatcherConfiguration", "WatcherCore", "WatcherPlugins",
                "WatcherTestSupport",
            ]
        ),
        tests(
            "WatcherSchedulerTests",
            ["WatcherCore", "WatcherScheduler", "WatcherTesting"]
        ),
        tests(
            "WatcherStorageTests",
            ["CLMDB", "WatcherCore", "WatcherStorage", "WatcherTestSupport", "WatcherTesting", "watcher-test-helper"]
        ),
        tests("WatcherZMQTests", ["WatcherZMQ", "WatcherTesting"]),
        tests(
            "WatcherEventLogTests",
            ["WatcherCore", "WatcherEventLog", "WatcherStorage", "WatcherTestSupport"]
        ),
        tests(
            "WatcherHTTPTests",
            ["WatcherCore", "WatcherHTTP", "WatcherTestSupport", "WatcherTesting", .httpTypes]
        ),
        tests(
            "WatcherSinksTests",
            [
                "WatcherCore", "WatcherDelivery", "WatcherEventLog", "WatcherSinks", "WatcherStorage",
                "WatcherTestSupport", "WatcherTesting", .metricsTestKit,
            ]
        ),
        tests(
            "WatcherDeliveryTests",
            [
                "WatcherJSON",
                "WatcherCore", "WatcherDelivery", "WatcherEventLog", "WatcherHTTP", "WatcherSinks", "WatcherStorage",
                "WatcherTestSupport", "WatcherTesting", .metricsTestKit,
            ]
        ),
        tests(
            "WatcherPostgresTests",
            [
                "WatcherJSON",
                "WatcherCore", "WatcherDelivery", "WatcherEngine", "WatcherEventLog", "WatcherObservability",
                "WatcherPostgres", "WatcherRules", "WatcherSimnet", "WatcherSinks", "WatcherStorage",
                "WatcherTestSupport", "WatcherTesting", "watcher", .logging, .metricsTestKit, .postgresNIO,
                .serviceLifecycle,
            ]
        ),
        // The rules on values alone: no store, no network, no simnet (they build and run first, and fast).
        tests("WatcherRulesTests", ["WatcherJSON", "WatcherBitcoin", "WatcherCore", "WatcherRules"]),
        tests(
            "WatcherEngineTests",
            [
                "WatcherJSON",
                "WatcherConfiguration", "WatcherCore", "WatcherEngine", "WatcherRules", "WatcherSimnet",
                "WatcherStorage", "WatcherTesting",
            ]
        ),
        tests(
            "WatcherStatusTests",
            [
                "WatcherJSON",
                "WatcherConfiguration", "WatcherCore", "WatcherObservability", "WatcherStatus", "WatcherStorage",
                "WatcherTestSupport",
                "WatcherTesting", .asyncHTTPClient, .logging, .nioCore, .nioHTTP1, .prometheus, .serviceLifecycle,
            ]
        ),
        tests(
            "WatcherSimnetTests",
            [
                "WatcherJSON",
                "WatcherBitcoin", "WatcherCore", "WatcherFixtures", "WatcherSimnet", "WatcherTesting", "WatcherZMQ",
                .asyncHTTPClient, .nioCore, .nioHTTP1,
            ],
            // Real Bitcoin Core bodies the node face is checked against (Fixtures/bitcoind/SOURCES.md).
            resources: [.copy("Fixtures")]
        ),
        tests(
            "ProviderTests",
            [
                "BitcoindAdapter", "BlockbookAdapter", "CoinDeskAdapter", "JSONPriceAdapter", "RawAddrAdapter",
                "WatcherBitcoin",
                "WatcherConfiguration",
                "WatcherCore", "WatcherFixtures", "WatcherFuzzing", "WatcherHTTP", "WatcherPlugins", "WatcherSimnet",
                "WatcherTesting", .httpTypes, .logging,
            ],
            exclude: ["Fixtures"]
        ),
        tests(
            "BitcoindAdapterTests",
            [
                "BitcoindAdapter", "WatcherBitcoin", "WatcherConfiguration", "WatcherCore", "WatcherHTTP",
                "WatcherJSON", "WatcherPlugins", "WatcherSimnet", "WatcherTestSupport", "WatcherTesting", "WatcherZMQ",
                "watcher", .httpTypes, .hummingbird,
            ],
            resources: [.copy("Fixtures")]
        ),
        tests(
            "ElectrumAdapterTests",
            [
                "ElectrumAdapter", "WatcherBitcoin", "WatcherCore", "WatcherJSON", "WatcherSimnet",
                "WatcherTestSupport", "WatcherTesting", .nioCore, .nioPosix,
            ],
            // Real Electrum protocol exchanges the simnet's Electrum face is checked against (Fixtures/SOURCES.md).
            resources: [.copy("Fixtures")]
        ),
        tests(
            "WatcherAppTests",
            [
                "WatcherJSON",
                "CoinDeskAdapter", "WatcherApp", "WatcherBitcoin", "WatcherConfiguration", "WatcherCore",
                "WatcherPlugins", "WatcherSimnet", "WatcherStorage", "WatcherTestSupport", "WatcherTesting", "watcher",
            ],
            // The wallet vectors `watcher wallets derive` is tested with (Fixtures/SOURCES.md).
            resources: [.copy("Fixtures")]
        ),
        tests(
            "IntegrationTests",
            [
                "WatcherJSON",
                "WatcherBitcoin",
                "BlockbookAdapter", "RawAddrAdapter", "WatcherApp", "WatcherConfiguration", "WatcherCore",
                "WatcherEngine", "WatcherHTTP", "WatcherPlugins", "WatcherQR", "WatcherRequests", "WatcherRules",
                "WatcherScheduler",
                "WatcherSimnet", "WatcherSinks", "WatcherStorage", "WatcherTestSupport", "WatcherTesting", "watcher",
                .asyncHTTPClient, .httpTypes,
                .hummingbird, .hummingbirdWSClient, .logging, .nioCore, .nioHTTP1, .nioWebSocket, .serviceLifecycle,
            ]
        ),

    ]
)

// Every target gets the project's Swift settings; these three say so once.

/// A library target.
func library(_ name: String, _ dependencies: [Target.Dependency], path: String? = nil, resources: [Resource]? = nil)
    -> Target
{
    .target(name: name, dependencies: dependencies, path: path, resources: resources, swiftSettings: swiftSettings)
}

/// An executable target.
func executable(_ name: String, _ dependencies: [Target.Dependency], path: String? = nil) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: path, swiftSettings: swiftSettings)
}

/// A test target.
func tests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = [], resources: [Resource]? = nil)
    -> Target
{
    .testTarget(
        name: name,
        dependencies: dependencies,
        exclude: exclude,
        resources: resources,
        swiftSettings: swiftSettings
    )
}

// The products of other packages that targets import, by the module name.
extension Target.Dependency {
    static var argumentParser: Self { .product(name: "ArgumentParser", package: "swift-argument-parser") }
    static var asyncAlgorithms: Self { .product(name: "AsyncAlgorithms", package: "swift-async-algorithms") }
    static var asyncHTTPClient: Self { .product(name: "AsyncHTTPClient", package: "async-http-client") }
    static var coreMetrics: Self { .product(name: "CoreMetrics", package: "swift-metrics") }
    static var crypto: Self { .product(name: "Crypto", package: "swift-crypto") }
    static var httpTypes: Self { .product(name: "HTTPTypes", package: "swift-http-types") }
    static var hummingbird: Self { .product(name: "Hummingbird", package: "hummingbird") }
    static var hummingbirdWSClient: Self { .product(name: "HummingbirdWSClient", package: "hummingbird-websocket") }
    static var hummingbirdWebSocket: Self { .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket") }
    static var logging: Self { .product(name: "Logging", package: "swift-log") }
    static var metricsTestKit: Self { .product(name: "MetricsTestKit", package: "swift-metrics") }
    static var nioCore: Self { .product(name: "NIOCore", package: "swift-nio") }
    static var nioHTTP1: Self { .product(name: "NIOHTTP1", package: "swift-nio") }
    static var nioPosix: Self { .product(name: "NIOPosix", package: "swift-nio") }
    static var nioSSL: Self { .product(name: "NIOSSL", package: "swift-nio-ssl") }
    static var x509: Self { .product(name: "X509", package: "swift-certificates") }
    static var swiftASN1: Self { .product(name: "SwiftASN1", package: "swift-asn1") }
    static var nioWebSocket: Self { .product(name: "NIOWebSocket", package: "swift-nio") }
    static var postgresNIO: Self { .product(name: "PostgresNIO", package: "postgres-nio") }
    static var prometheus: Self { .product(name: "Prometheus", package: "swift-prometheus") }
    static var serviceLifecycle: Self { .product(name: "ServiceLifecycle", package: "swift-service-lifecycle") }
    static var unixSignals: Self { .product(name: "UnixSignals", package: "swift-service-lifecycle") }
}
