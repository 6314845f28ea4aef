// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "tracksnap",
    // iOS 18 and macOS 15: the first with `Synchronization.Mutex`. An iOS app links `TracksnapCapture`
    // only (its closure is `TracksnapTraffic`, `TracksnapJSON`, `Inflation` and the SDK's zlib); the rest runs on a
    // Mac or Linux.
    platforms: [.macOS(.v15), .iOS(.v18)],
    // The faces a user imports, and nothing else (ARCHITECTURE.md, "Products for the faces only"):
    // the other modules are reached through these, and share what no face shows as `package`.
    products: [
        .executable(name: "tracksnap", targets: ["tracksnap"]),
        .library(name: "TracksnapTesting", targets: ["TracksnapTesting"]),
        .library(name: "TracksnapTestingServer", targets: ["TracksnapTestingServer"]),
        .library(name: "TracksnapCapture", targets: ["TracksnapCapture"]),
        .library(name: "TracksnapServer", targets: ["TracksnapServer"]),
        .library(name: "TracksnapExtensions", targets: ["TracksnapExtensions"]),
        .library(name: "TracksnapCommandLine", targets: ["TracksnapCommandLine"]),
        .library(name: "TracksnapCommandLineServer", targets: ["TracksnapCommandLineServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // HTTPS interception (`tracksnap ca`, `serve --intercept`): TLS, HTTP/2, and the CA's certificates.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // YAML: VCR's and vcrpy's cassettes, RudderStack's tracking plans (libyaml underneath, with each node's
        // line and column).
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // `make docs`: the DocC catalogs (`swift package generate-documentation`); a plugin, nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "Patterns", dependencies: ["CPCRE2"]),
        // zlib in its box, as PCRE2 is in `Patterns`: inflation within a byte budget.
        .target(name: "Inflation", dependencies: ["CZlib"]),
        // JSON with every value's line and column, numbers as written, JSON Pointers, Codable through JSONValue;
        // and the located errors' one shape (`Diagnostic`, `LocatedError`). It depends on nothing.
        .target(name: "TracksnapJSON"),
        // Protobuf read from the wire without a schema: fields, numbers and byte offsets. It needs nothing but bytes.
        .target(name: "Protobuf"),
        // JSON Schema (draft-04, -06, -07, 2020-12) compiled once into checks; patterns through PCRE2, the
        // drafts' meta-schemas compiled into the module.
        .target(
            name: "JSONSchemaValidation", dependencies: ["TracksnapJSON", "Patterns"],
            resources: [.embedInCode("MetaSchemas")]),
        // What an app links, so no PCRE2: captured requests and their files, the body decoder,
        // the wait list, the report's Codable types. Snapshots, matchers and filters (patterns) are Core's.
        .target(name: "TracksnapTraffic", dependencies: ["TracksnapJSON", "Inflation"]),
        .target(
            name: "TracksnapSnapshot",
            dependencies: ["TracksnapJSON", "TracksnapTraffic", "Patterns", "JSONSchemaValidation"]),
        .target(
            name: "TracksnapDecoders",
            dependencies: ["TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "Protobuf"]),
        // The built-in profiles' JSON is compiled into the module (`PackageResources`): no bundle at run time.
        // YAML read as located JSON values, with limits on aliases and depth: one reader for the
        // cassettes (replay) and the RudderStack plans (validation), neither of which depends on the other.
        .target(
            name: "TracksnapYAML",
            dependencies: ["TracksnapJSON", .product(name: "Yams", package: "Yams")]),
        .target(
            name: "TracksnapValidation",
            dependencies: [
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "Patterns", "Inflation",
                "JSONSchemaValidation", "TracksnapYAML",
            ],
            resources: [.embedInCode("Profile/BuiltIn")]
        ),
        // Recording sits above validation (it re-pairs entries as validation does) and writes the snapshots, atomically.
        .target(
            name: "TracksnapRecording",
            dependencies: [
                "TracksnapValidation", "TracksnapDecoders", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot",
                "Patterns",
            ]),
        .target(
            name: "TracksnapReports",
            dependencies: ["TracksnapValidation", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot"]),
        .target(
            name: "TracksnapServer",
            dependencies: [
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
                "TracksnapRecording",
                "TracksnapReplay",
                "TracksnapReports",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            // The inspector's page, script and style, compiled into the module as the built-in profiles are.
            resources: [.embedInCode("Inspector/Assets")]
        ),
        .target(name: "TracksnapCapture", dependencies: ["TracksnapJSON", "TracksnapTraffic"]),
        .target(
            name: "TracksnapReplay",
            dependencies: [
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapValidation", "TracksnapRecording",
                "TracksnapYAML",
            ]),
        // The extension points in one import: `VendorDecoder`, `RequestFilter`, `Validator` and
        // `ReportFormat`, with the types they take and give and the `Extensions` that carry them.
        .target(
            name: "TracksnapExtensions",
            dependencies: [
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
                "TracksnapReports",
            ]
        ),
        .target(
            name: "TracksnapTesting",
            dependencies: [
                "TracksnapCapture", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapValidation",
                "TracksnapRecording", "TracksnapReports", "TracksnapDecoders", "TracksnapReplay",
            ]),
        // A server in the test's own process: a product of its own, so that tests that capture
        // in-process only do not build SwiftNIO.
        .target(
            name: "TracksnapTestingServer", dependencies: ["TracksnapTesting", "TracksnapCapture", "TracksnapServer"]),
        // An app's checkout, reporting its requests to a server session: what the app-side
        // capture test runs in a process of its own.
        .executableTarget(
            name: "TracksnapExampleApp", dependencies: ["TracksnapCapture", "TracksnapJSON", "TracksnapTraffic"],
            path: "Tools/TracksnapExampleApp"),
        // The command line as a library, for an executable of your own with decoders, filters and
        // validators of its own: every subcommand but `serve` and `ca`, so no SwiftNIO.
        .target(
            name: "TracksnapCommandLine",
            dependencies: [
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
                "TracksnapRecording", "TracksnapReports", "TracksnapReplay", "TracksnapYAML",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `serve` and `ca` added: the whole command line, which the `tracksnap` executable runs.
        .target(
            name: "TracksnapCommandLineServer",
            dependencies: [
                "TracksnapCommandLine", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot",
                "TracksnapValidation", "TracksnapReports", "TracksnapServer", "TracksnapReplay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "tracksnap", dependencies: ["TracksnapCommandLineServer"]),
        // The pattern benchmark's peer: pcre2_jit_match called from C, with nothing around it.
        .target(name: "CPCRE2Baseline", dependencies: ["CPCRE2"], path: "Tools/CPCRE2Baseline"),
        .executableTarget(
            name: "TracksnapBenchmarks",
            dependencies: [
                "Patterns", "CPCRE2Baseline", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot",
                "TracksnapDecoders",
                "TracksnapValidation", "JSONSchemaValidation", "Protobuf", "TracksnapServer",
            ],
            path: "Tools/TracksnapBenchmarks"
        ),
        // The server benchmark's peers: SwiftNIO answering 204 with nothing around it, or passing
        // each request on with AsyncHTTPClient.
        .executableTarget(
            name: "NIOFloor",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tools/NIOFloor"
        ),
        // The parsers under libFuzzer: `make fuzz` builds `TracksnapFuzz` with `-sanitize=fuzzer,address -DFUZZING`;
        // an ordinary build makes it a command that replays inputs. The targets are a library the tests share.
        .target(
            name: "TracksnapFuzzing",
            dependencies: [
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
                "TracksnapRecording",
                "Patterns", "TracksnapServer", "TracksnapReplay", "JSONSchemaValidation", "Protobuf", "TracksnapYAML",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Tools/TracksnapFuzzing"
        ),
        .target(name: "CLibFuzzer", path: "Tools/CLibFuzzer"),
        .executableTarget(
            name: "TracksnapFuzz", dependencies: ["TracksnapFuzzing", "CLibFuzzer"], path: "Tools/TracksnapFuzz"),
        // What several test targets share: the package's paths, temporary directories, a seeded generator.
        .target(name: "TracksnapTestSupport", path: "Tests/Support"),
        .testTarget(name: "PatternsTests", dependencies: ["Patterns"]),
        .testTarget(name: "InflationTests", dependencies: ["TracksnapTestSupport", "Inflation"]),
        // The schemaless reader, held to Python's bbpb on generated messages (`make sdk-venv` installs it).
        .testTarget(name: "ProtobufTests", dependencies: ["TracksnapTestSupport", "Protobuf"], exclude: ["Scripts"]),
        // The official JSON-Schema-Test-Suite, which `make json-schema-suite` fetches into .build.
        .testTarget(
            name: "JSONSchemaValidationTests",
            dependencies: ["TracksnapTestSupport", "JSONSchemaValidation", "TracksnapJSON"], exclude: ["Scripts"]),
        .testTarget(
            name: "TracksnapJSONTests", dependencies: ["TracksnapTestSupport", "TracksnapJSON"], exclude: ["Fixtures"]),
        .testTarget(
            name: "TracksnapTrafficTests", dependencies: ["TracksnapTestSupport", "TracksnapJSON", "TracksnapTraffic"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "TracksnapDecodersTests",
            dependencies: ["TracksnapTestSupport", "TracksnapDecoders", "TracksnapJSON", "TracksnapTraffic"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "TracksnapSnapshotTests", dependencies: ["TracksnapSnapshot", "TracksnapJSON", "TracksnapTraffic"]),
        .testTarget(
            name: "TracksnapReplayTests",
            dependencies: [
                "TracksnapTestSupport", "TracksnapReplay", "TracksnapSnapshot", "TracksnapJSON", "TracksnapTraffic",
                "TracksnapValidation", "TracksnapYAML",
            ],
            exclude: ["Scripts"]),
        // What validation's and recording's tests share: snapshots, requests and profiles written in the test.
        .target(
            name: "TracksnapValidationTestSupport",
            dependencies: ["TracksnapValidation", "TracksnapSnapshot", "TracksnapJSON", "TracksnapTraffic"],
            path: "Tests/ValidationSupport"),
        .testTarget(
            name: "TracksnapValidationTests",
            dependencies: [
                "TracksnapTestSupport", "TracksnapValidationTestSupport", "TracksnapValidation", "TracksnapDecoders",
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "Inflation",
            ]),
        // Recording's tests validate what they record.
        .testTarget(
            name: "TracksnapRecordingTests",
            dependencies: [
                "TracksnapTestSupport", "TracksnapValidationTestSupport", "TracksnapRecording", "TracksnapValidation",
                "TracksnapDecoders", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot",
            ]),
        .testTarget(
            name: "TracksnapReportsTests",
            dependencies: [
                "TracksnapTestSupport", "TracksnapReports", "TracksnapValidation", "TracksnapRecording",
                "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot",
            ]),
        .testTarget(
            name: "TracksnapServerTests",
            dependencies: [
                "TracksnapTestSupport", "TracksnapServer", "TracksnapCapture", "TracksnapJSON", "TracksnapTraffic",
                // The interception tests' upstream: a small TLS server of their own.
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Certificates the CA tests forge.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "TracksnapCaptureTests",
            dependencies: [
                "TracksnapTestSupport", "TracksnapCapture", "TracksnapJSON", "TracksnapTraffic", "TracksnapServer",
            ]),
        .testTarget(
            name: "TracksnapTestingTests",
            dependencies: [
                "TracksnapTestSupport", "TracksnapTesting", "TracksnapExtensions", "TracksnapJSON", "TracksnapTraffic",
                "TracksnapServer",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "TracksnapTestingServerTests",
            dependencies: ["TracksnapTestSupport", "TracksnapTestingServer", "TracksnapExampleApp", "TracksnapTraffic"]),
        .testTarget(name: "TracksnapFuzzingTests", dependencies: ["TracksnapTestSupport", "TracksnapFuzzing"]),
        .testTarget(
            name: "TracksnapCLITests",
            dependencies: [
                "TracksnapTestSupport", "tracksnap", "TracksnapCommandLine", "TracksnapTraffic", "TracksnapJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Fixtures"]),
    ]
)

// The Swift 6 upcoming features that keep the public face small and the imports honest, as
// swift-log does: every existential spelled `any`, and a member usable only where its module is imported.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
