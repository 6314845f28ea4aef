import Foundation
import Testing
import TracksnapTestSupport

/// The package's layering, written once: each module target and what it may depend on directly
/// (targets of this package and products of its dependencies). Package.swift's declarations and
/// the `import` lines of every module's sources are held to it, and it is held to the rules below.
private let allowedDependencies: [String: Set<String>] = [
    "CPCRE2": [],
    "CZlib": [],
    "Patterns": ["CPCRE2"],
    "Inflation": ["CZlib"],
    "TracksnapJSON": [],
    "Protobuf": [],
    "JSONSchemaValidation": ["TracksnapJSON", "Patterns"],
    "TracksnapTraffic": ["TracksnapJSON", "Inflation"],
    "TracksnapSnapshot": ["TracksnapJSON", "TracksnapTraffic", "Patterns", "JSONSchemaValidation"],
    "TracksnapDecoders": ["TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "Protobuf"],
    "TracksnapYAML": ["TracksnapJSON", "Yams"],
    "TracksnapValidation": [
        "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "Patterns", "Inflation",
        "JSONSchemaValidation", "TracksnapYAML",
    ],
    "TracksnapRecording": [
        "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
        "Patterns",
    ],
    "TracksnapReports": ["TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapValidation"],
    "TracksnapServer": [
        "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
        "TracksnapRecording",
        "TracksnapReplay",
        "TracksnapReports", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOTLS", "NIOSSL", "NIOHTTP2", "AsyncHTTPClient",
        "X509", "Crypto", "SwiftASN1",
    ],
    "TracksnapCapture": ["TracksnapJSON", "TracksnapTraffic"],
    "TracksnapReplay": [
        "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapValidation", "TracksnapRecording",
        "TracksnapYAML",
    ],
    "TracksnapExtensions": [
        "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
        "TracksnapReports",
    ],
    "TracksnapTesting": [
        "TracksnapCapture", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapValidation",
        "TracksnapRecording", "TracksnapReports", "TracksnapDecoders", "TracksnapReplay",
    ],
    "TracksnapTestingServer": ["TracksnapTesting", "TracksnapCapture", "TracksnapServer"],
    "TracksnapCommandLine": [
        "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
        "TracksnapRecording", "TracksnapReports", "TracksnapReplay", "TracksnapYAML", "ArgumentParser",
    ],
    "TracksnapCommandLineServer": [
        "TracksnapCommandLine", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapValidation",
        "TracksnapReports", "TracksnapServer", "TracksnapReplay", "ArgumentParser",
    ],
    "tracksnap": ["TracksnapCommandLineServer"],
    // Tools/
    "TracksnapExampleApp": ["TracksnapCapture", "TracksnapJSON", "TracksnapTraffic"],
    "CPCRE2Baseline": ["CPCRE2"],
    "TracksnapBenchmarks": [
        "Patterns", "CPCRE2Baseline", "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders",
        "TracksnapValidation", "JSONSchemaValidation", "Protobuf", "TracksnapServer",
    ],
    "TracksnapFuzzing": [
        "TracksnapJSON", "TracksnapTraffic", "TracksnapSnapshot", "TracksnapDecoders", "TracksnapValidation",
        "TracksnapRecording", "TracksnapYAML",
        "TracksnapServer", "TracksnapReplay", "Patterns", "NIOCore", "NIOEmbedded", "JSONSchemaValidation", "Protobuf",
    ],
    "CLibFuzzer": [],
    "NIOFloor": ["NIOCore", "NIOPosix", "NIOHTTP1", "AsyncHTTPClient"],
    "TracksnapFuzz": ["TracksnapFuzzing", "CLibFuzzer"],
    // Tests/
    "TracksnapTestSupport": [],
    "TracksnapValidationTestSupport": [
        "TracksnapValidation", "TracksnapSnapshot", "TracksnapJSON", "TracksnapTraffic",
    ],
]

/// What the table must never allow, however it is edited: a module and what it must not reach
/// through any chain of dependencies, and why.
private let layeringRules: [(module: String, neverReaches: Set<String>, why: String)] = [
    ("TracksnapReports", ["TracksnapRecording"], "a report renders results, it never records"),
    (
        "TracksnapCapture", swiftNIO.union(["TracksnapSnapshot", "Patterns", "CPCRE2"]),
        "what an app links: no PCRE2, no SwiftNIO"
    ),
    ("TracksnapSnapshot", ["TracksnapDecoders", "TracksnapValidation", "TracksnapServer"], "the snapshot language"),
    (
        "TracksnapCommandLine", swiftNIO.union(["TracksnapServer"]),
        "a command line of your own without serve builds no SwiftNIO"
    ),
    (
        "TracksnapTraffic", Set(allowedDependencies.keys).subtracting(["TracksnapJSON", "Inflation", "CZlib"]),
        "JSON and requests only"
    ),
    ("TracksnapJSON", Set(allowedDependencies.keys), "JSON stands alone"),
    ("Protobuf", Set(allowedDependencies.keys), "the protobuf reader needs nothing but bytes"),
]

/// SwiftNIO and what is built on it.
private let swiftNIO: Set<String> = [
    "NIOCore", "NIOPosix", "NIOHTTP1", "NIOTLS", "NIOEmbedded", "NIOSSL", "NIOHTTP2", "AsyncHTTPClient",
]

/// Modules of the toolchain, which any target may import.
private let toolchainModules: Set<String> = [
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch", "Synchronization",
    "Glibc", "Musl", "Darwin", "os", "Testing", "XCTest",
]

@Suite("The module graph keeps its layers")
struct LayeringTests {
    @Test("every module target has a row in the table, and every row is a target")
    func tableCoversThePackage() async throws {
        let targets = Set(try await DescribedPackage.current().moduleTargets.map(\.name))
        let rows = Set(allowedDependencies.keys)
        #expect(targets.subtracting(rows).isEmpty, "targets without a row: \(targets.subtracting(rows).sorted())")
        #expect(rows.subtracting(targets).isEmpty, "rows without a target: \(rows.subtracting(targets).sorted())")
    }

    @Test("the table keeps the rules: reports never reach recording, capture never Core or SwiftNIO, …")
    func tableKeepsTheRules() {
        let problems = ruleProblems(allowedDependencies)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("Package.swift declares only dependencies the table allows")
    func declaredDependencies() async throws {
        let problems = declarationProblems(try await DescribedPackage.current())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("each module's sources import only what the table allows and Package.swift declares")
    func sourceImports() async throws {
        let package = try await DescribedPackage.current()
        var problems: [String] = []
        for target in package.moduleTargets {
            problems += importProblems(of: target.name, try package.sourceImports(of: target.name), in: package)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    // The checks above must be able to fail: a forbidden edge in each place, each caught.

    @Test("a report that imports recording is caught at its line; so are an undeclared import and an unknown module")
    func forbiddenImportIsCaught() async throws {
        let package = try await DescribedPackage.current()
        let source = """
            import Foundation
            internal import TracksnapValidation
            @preconcurrency import TracksnapRecording
            let script = \"""
                import NIOCore
                \"""
            import struct TracksnapSnapshot.Snapshot
            """
        let found = imports(in: source).map { (place: "Report.swift:\($0.line)", module: $0.module) }
        #expect(
            found.map(\.module) == ["Foundation", "TracksnapValidation", "TracksnapRecording", "TracksnapSnapshot"])
        let problems = importProblems(of: "TracksnapReports", found, in: package)
        #expect(
            problems == [
                "Report.swift:3: TracksnapReports imports TracksnapRecording, which the layering table does not allow"
            ], "\(problems)")
        var testing = package
        testing.removeDependency("TracksnapSnapshot", from: "TracksnapTesting")
        #expect(
            importProblems(of: "TracksnapTesting", [("Assert.swift:1", "TracksnapSnapshot")], in: testing) == [
                "Assert.swift:1: TracksnapTesting imports TracksnapSnapshot, which Package.swift does not declare"
            ])
        #expect(
            importProblems(of: "TracksnapCapture", [("App.swift:1", "NIOConcurrencyHelpers")], in: package) == [
                "App.swift:1: TracksnapCapture imports NIOConcurrencyHelpers, not a module of the toolchain or of the layering table"
            ])
    }

    @Test("a capture that declares the server is caught in Package.swift")
    func forbiddenDeclarationIsCaught() async throws {
        var package = try await DescribedPackage.current()
        package.addDependency("TracksnapServer", to: "TracksnapCapture")
        #expect(
            declarationProblems(package).contains(
                "TracksnapCapture → TracksnapServer: declared in Package.swift, not allowed by the layering table"),
            "\(declarationProblems(package))")
    }

    @Test("a table edited to let Core, the capture, the command line or JSON reach further breaks a rule")
    func forbiddenRowIsCaught() {
        var core = allowedDependencies
        core["TracksnapSnapshot", default: []].insert("TracksnapValidation")
        #expect(
            ruleProblems(core) == [
                "TracksnapSnapshot → TracksnapValidation → TracksnapDecoders: TracksnapSnapshot must not reach it (the snapshot language)",
                "TracksnapSnapshot → TracksnapValidation: TracksnapSnapshot must not reach it (the snapshot language)",
            ], "\(ruleProblems(core))")
        var capture = allowedDependencies
        capture["TracksnapCapture", default: []].insert("TracksnapSnapshot")
        #expect(
            ruleProblems(capture).contains {
                $0.hasPrefix("TracksnapCapture → TracksnapSnapshot → Patterns → CPCRE2: ")
            },
            "\(ruleProblems(capture))")
        var commandLine = allowedDependencies
        commandLine["TracksnapCommandLine", default: []].insert("TracksnapServer")
        #expect(
            ruleProblems(commandLine).contains {
                $0.hasPrefix("TracksnapCommandLine → TracksnapServer: TracksnapCommandLine must not reach it")
            },
            "\(ruleProblems(commandLine))")
        var json = allowedDependencies
        json["TracksnapJSON", default: []].insert("Inflation")
        #expect(
            ruleProblems(json) == [
                "TracksnapJSON → Inflation → CZlib: TracksnapJSON must not reach it (JSON stands alone)",
                "TracksnapJSON → Inflation: TracksnapJSON must not reach it (JSON stands alone)",
            ], "\(ruleProblems(json))")
    }

    @Test("the test faces re-export the symbols a test names, not whole modules (one face may re-export another)")
    func facesExportSymbols() throws {
        for face in testFaces.keys.sorted() {
            let path = "Sources/\(face)/Exports.swift"
            let text = try String(contentsOf: PackagePaths.root.appending(path: path), encoding: .utf8)
            let problems = wholeModuleExports(in: text, of: face, file: path)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
        let planted =
            "@_exported import struct TracksnapTraffic.CapturedRequest\n@_exported import TracksnapValidation\n"
        #expect(
            wholeModuleExports(in: planted, of: "TracksnapTesting", file: "Exports.swift") == [
                "Exports.swift:2: TracksnapTesting re-exports the whole module TracksnapValidation; re-export the symbols a test names (`@_exported import struct TracksnapValidation.NAME`)"
            ])
    }
}

/// The products a test imports, and the faces each may re-export whole.
private let testFaces: [String: Set<String>] = ["TracksnapTesting": [], "TracksnapTestingServer": ["TracksnapTesting"]]

/// Each `@_exported import` of a whole module in a test face's `Exports.swift`, other than a face it may re-export.
private func wholeModuleExports(in text: String, of face: String, file: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
        let words = line.split(separator: " ")
        guard words.count == 3, words[0] == "@_exported", words[1] == "import",
            !(testFaces[face] ?? []).contains(String(words[2]))
        else { return nil }
        return
            "\(file):\(index + 1): \(face) re-exports the whole module \(words[2]); re-export the symbols a test names (`@_exported import struct \(words[2]).NAME`)"
    }
}

/// Each declared dependency the table does not allow, as `Module → Dependency: …`.
private func declarationProblems(_ package: DescribedPackage) -> [String] {
    package.moduleTargets.flatMap { target in
        package.declaredDependencies(of: target.name).subtracting(allowedDependencies[target.name] ?? []).sorted().map {
            "\(target.name) → \($0): declared in Package.swift, not allowed by the layering table"
        }
    }
}

/// Each import of `module`'s sources that the table does not allow, that Package.swift does not
/// declare, or that is neither a module of the package's graph nor of the toolchain.
private func importProblems(
    of module: String, _ imports: [(place: String, module: String)], in package: DescribedPackage
) -> [String] {
    let allowed = allowedDependencies[module] ?? []
    let declared = package.declaredDependencies(of: module)
    let known = Set(allowedDependencies.keys).union(allowedDependencies.values.joined())
    return imports.compactMap { place, imported in
        if toolchainModules.contains(imported) || imported == module { return nil }
        if !known.contains(imported) {
            return "\(place): \(module) imports \(imported), not a module of the toolchain or of the layering table"
        }
        if !allowed.contains(imported) {
            return "\(place): \(module) imports \(imported), which the layering table does not allow"
        }
        if !declared.contains(imported) {
            return "\(place): \(module) imports \(imported), which Package.swift does not declare"
        }
        return nil
    }
}

/// Each rule the table breaks, as the chain that reaches the forbidden module and the rule's reason.
private func ruleProblems(_ table: [String: Set<String>]) -> [String] {
    layeringRules.flatMap { rule in
        shortestChains(from: rule.module) { (table[$0] ?? []).sorted() }
            .filter { $0.key != rule.module && rule.neverReaches.contains($0.key) }
            .sorted { $0.key < $1.key }
            .map { "\($0.value.joined(separator: " → ")): \(rule.module) must not reach it (\(rule.why))" }
    }
}
