// swift-tools-version:6.2
// An adapter package of its own: an Esplora chain provider for `watcher`, built against the project by path and
// using only its public products (docs/writing-a-provider.md walks through it).
import PackageDescription

let package = Package(
    name: "esplora-adapter",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "watcher-esplora", targets: ["watcher-esplora"]),
        .library(name: "EsploraAdapter", targets: ["EsploraAdapter"]),
    ],
    dependencies: [
        // The project itself. From outside this repository, use its URL and a version instead.
        .package(name: "watcher", path: "../.."),
        // The HTTP vocabulary of `HTTPFetching` (status, header fields); the project depends on it too.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "EsploraAdapter",
            dependencies: [
                .product(name: "WatcherBitcoin", package: "watcher"),
                .product(name: "WatcherCore", package: "watcher"),
                .product(name: "WatcherHTTP", package: "watcher"),
                .product(name: "WatcherJSON", package: "watcher"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "watcher-esplora",
            dependencies: [
                "EsploraAdapter",
                .product(name: "WatcherApp", package: "watcher"),
            ]
        ),
        .testTarget(
            name: "EsploraAdapterTests",
            dependencies: [
                "EsploraAdapter",
                .product(name: "WatcherTesting", package: "watcher"),
                .product(name: "WatcherCore", package: "watcher"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)
