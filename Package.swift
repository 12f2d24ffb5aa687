// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "watcher",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "watcher", targets: ["watcher"]),
        .library(name: "WatcherCore", targets: ["WatcherCore"]),
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
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .target(
            name: "WatcherCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The scheduler runtime: per-provider lanes (token bucket, concurrency, circuit breaker), priorities, failover.
        .target(
            name: "WatcherScheduler",
            dependencies: [
                "WatcherCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherStorage",
            dependencies: [
                "CLMDB",
                "WatcherCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherHTTP",
            dependencies: [
                "WatcherCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherSinks",
            dependencies: [
                "WatcherCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The storage-bound side of the sinks: a worker per sink reading the event log from its cursor, retries and
        // dead letters, log trimming.
        .target(
            name: "WatcherDelivery",
            dependencies: [
                "WatcherCore",
                "WatcherSinks",
                "WatcherStorage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherPostgres",
            dependencies: [
                "WatcherCore",
                "WatcherSinks",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherEngine",
            dependencies: [
                "WatcherCore",
                "WatcherScheduler",
                "WatcherStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherStatus",
            dependencies: [
                "WatcherCore",
                "WatcherStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherSimnet",
            dependencies: [
                "WatcherCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "BlockbookProvider",
            dependencies: [
                "WatcherCore",
                "WatcherHTTP",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Providers/Blockbook",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RawAddrProvider",
            dependencies: [
                "WatcherCore",
                "WatcherHTTP",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Providers/RawAddr",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CoinDeskProvider",
            dependencies: [
                "WatcherCore",
                "WatcherHTTP",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Providers/CoinDesk",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "JSONPriceProvider",
            dependencies: [
                "WatcherCore",
                "WatcherHTTP",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Providers/JSONPrice",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherTesting",
            dependencies: [
                "WatcherCore",
                "WatcherHTTP",
                "WatcherSimnet",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The catalog of built-in plugins, one list for the CLI and the config fuzzer.
        .target(
            name: "WatcherPlugins",
            dependencies: [
                "WatcherCore",
                "WatcherSinks",
                "WatcherPostgres",
                "BlockbookProvider",
                "RawAddrProvider",
                "CoinDeskProvider",
                "JSONPriceProvider",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherFuzzing",
            dependencies: [
                "WatcherCore",
                "WatcherHTTP",
                "WatcherSinks",
                "WatcherPlugins",
                "BlockbookProvider",
                "RawAddrProvider",
                "CoinDeskProvider",
                "JSONPriceProvider",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "watcher-fuzz",
            dependencies: ["WatcherFuzzing"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WatcherApp",
            dependencies: [
                "WatcherCore",
                "WatcherScheduler",
                "WatcherStorage",
                "WatcherHTTP",
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherEngine",
                "WatcherStatus",
                "WatcherSimnet",
                "WatcherPlugins",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "watcher",
            dependencies: ["WatcherApp"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "watcher-bench",
            dependencies: ["WatcherStorage", "CLMDB"],
            path: "Benchmarks/StorageBenchmark",
            swiftSettings: swiftSettings
        ),
        // What the delivery benchmarks share: the event they append and a scratch directory.
        .target(
            name: "BenchmarkSupport",
            path: "Benchmarks/Support",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "watcher-delivery-bench",
            dependencies: [
                "BenchmarkSupport",
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherStorage",
                "WatcherCore",
                "WatcherHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/DeliveryBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "watcher-postgres-bench",
            dependencies: [
                "BenchmarkSupport",
                "WatcherPostgres",
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherStorage",
                "WatcherCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/PostgresBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "watcher-test-helper",
            dependencies: ["WatcherStorage"],
            path: "Tests/Helpers/TestHelper",
            swiftSettings: swiftSettings
        ),
        // The recorded provider bodies of Tests/ProviderTests/Fixtures (one copy), for every test target that reads them.
        .target(
            name: "WatcherFixtures",
            path: "Tests/ProviderTests/Fixtures",
            resources: [.copy("blockbook"), .copy("price"), .copy("rawaddr")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WatcherCoreTests",
            dependencies: ["WatcherCore", "WatcherScheduler", "WatcherTesting"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WatcherStorageTests",
            dependencies: ["WatcherStorage", "WatcherCore", "CLMDB", "watcher-test-helper"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WatcherSimnetTests",
            dependencies: [
                "WatcherSimnet",
                "WatcherCore",
                "WatcherTesting",
                "WatcherFixtures",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderTests",
            dependencies: [
                "WatcherFuzzing",
                "BlockbookProvider",
                "RawAddrProvider",
                "CoinDeskProvider",
                "JSONPriceProvider",
                "WatcherTesting",
                "WatcherFixtures",
                "WatcherSimnet",
                "WatcherHTTP",
                "WatcherCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WatcherEngineTests",
            dependencies: [
                "WatcherEngine",
                "WatcherStorage",
                "WatcherCore",
                "WatcherSimnet",
                "WatcherTesting",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WatcherSinksTests",
            dependencies: [
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherStorage",
                "WatcherHTTP",
                "WatcherCore",
                "WatcherTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WatcherPostgresTests",
            dependencies: [
                "WatcherPostgres",
                "watcher",
                "WatcherEngine",
                "WatcherSimnet",
                "WatcherSinks",
                "WatcherDelivery",
                "WatcherStorage",
                "WatcherCore",
                "WatcherTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "WatcherScheduler",
                "WatcherApp",
                "WatcherPlugins",
                "watcher",
                "WatcherCore",
                "WatcherTesting",
                "WatcherStorage",
                "WatcherEngine",
                "WatcherSinks",
                "WatcherHTTP",
                "WatcherSimnet",
                "BlockbookProvider",
                "RawAddrProvider",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WatcherAppTests",
            dependencies: [
                "WatcherApp", "WatcherPlugins", "WatcherCore", "WatcherStorage", "WatcherSimnet", "WatcherTesting",
                "CoinDeskProvider", "watcher",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
