// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "tracksnap",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tracksnap", targets: ["TracksnapCLI"]),
        .library(name: "Patterns", targets: ["Patterns"]),
        .library(name: "TracksnapCore", targets: ["TracksnapCore"]),
        .library(name: "TracksnapValidation", targets: ["TracksnapValidation"]),
        .library(name: "TracksnapReports", targets: ["TracksnapReports"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        .target(name: "Patterns", dependencies: ["CPCRE2"]),
        .target(name: "TracksnapCore", dependencies: ["Patterns"]),
        .target(name: "TracksnapValidation", dependencies: ["TracksnapCore", "Patterns"]),
        .target(name: "TracksnapReports", dependencies: ["TracksnapValidation", "TracksnapCore"]),
        .executableTarget(
            name: "TracksnapCLI",
            dependencies: [
                "TracksnapCore", "TracksnapValidation", "TracksnapReports",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "TracksnapBenchmarks",
            dependencies: ["Patterns", "TracksnapCore", "TracksnapValidation"]
        ),
        .testTarget(name: "PatternsTests", dependencies: ["Patterns"]),
        .testTarget(name: "TracksnapCoreTests", dependencies: ["TracksnapCore"], exclude: ["Fixtures"]),
        .testTarget(name: "TracksnapValidationTests", dependencies: ["TracksnapValidation", "TracksnapCore"]),
        .testTarget(name: "TracksnapReportsTests", dependencies: ["TracksnapReports", "TracksnapValidation", "TracksnapCore"]),
        .testTarget(name: "TracksnapCLITests", dependencies: ["TracksnapCLI"], exclude: ["Fixtures"]),
    ]
)
