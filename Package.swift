// swift-tools-version:6.0
import PackageDescription

/// Upcoming language features every target of ours builds with: explicit `any` for existentials,
/// members visible only from modules a file imports itself, and imports internal unless a file
/// says `public import` (the library's API shows which modules it exposes: Foundation, Logging).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "cryptoreport",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CryptoReport", targets: ["CryptoReport"]),
        .executable(name: "cryptoreport", targets: ["cryptoreport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // Tests only: property tests of FastDecimal against Foundation.Decimal.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libxml2 through pkg-config; the shim header hides its ICU declarations from Swift.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // The system's libcurl for HTTP(S): a C library every Linux has, with its TLS, instead of
        // a TLS stack compiled with the tool (Fetching/CurlHTTPClient.swift says why); opened at
        // the first request (Sources/CCurl/curl.c says why). Its headers: libcurl4-openssl-dev.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "CryptoReport",
            dependencies: [
                "CLibXML2", "CCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: swiftSettings,
            // Templates/ and Samples/ built in at build time: the binary needs no file beside it.
            plugins: ["EmbedResources"]
        ),
        .executableTarget(name: "embed-resources", swiftSettings: swiftSettings),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
        // The git commit `--version` names, from a header `make build` writes.
        .target(name: "CBuildInfo"),
        .executableTarget(
            name: "cryptoreport",
            dependencies: [
                "CryptoReport", "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Micro-benchmarks of the number paths (`make bench`); never run by the tests.
        .executableTarget(name: "cryptoreport-bench", dependencies: ["CryptoReport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CryptoReportTests",
            dependencies: [
                // The command too: its flags are read the way the file and the environment are.
                "CryptoReport", "cryptoreport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures", "Golden"],
            swiftSettings: swiftSettings
        ),
    ]
)
