import Foundation
import Testing
import TracksnapTestSupport

/// What an iOS app links when it adds `TracksnapCapture`: the targets it reaches, read from
/// `swift package describe`. This Linux CI has no Apple SDK to build for iOS; what it can check
/// is that nothing in that closure needs what an iOS build lacks.
@Suite("What an iOS app links")
struct AppLinkTests {
    @Test("TracksnapCapture and the example app: no PCRE2, no system library but zlib, no package product")
    func closureIsAppSafe() async throws {
        let package = try await DescribedPackage.current()
        let product = try #require(package.products.first { $0.name == "TracksnapCapture" })
        for root in product.targets + ["TracksnapExampleApp"] {
            let closure = package.closure(of: root)
            #expect(
                closure["TracksnapTraffic"] != nil, "\(root) no longer reaches TracksnapTraffic: is the test stale?")
            let problems = package.appLinkProblems(of: root)
            #expect(problems.isEmpty, "\(root) cannot be linked by an iOS app:\n\(problems.joined(separator: "\n"))")
        }
    }

    @Test("the package declares iOS 18 (Synchronization's Mutex) beside macOS 15")
    func platforms() async throws {
        let platforms = try await DescribedPackage.current().platforms
        #expect(platforms.contains(DescribedPackage.Platform(name: "ios", version: "18.0")), "\(platforms)")
        #expect(platforms.contains(DescribedPackage.Platform(name: "macos", version: "15.0")), "\(platforms)")
    }

    @Test("sources in the closure import Linux-only modules only under #if")
    func noUnguardedLinuxImports() async throws {
        let package = try await DescribedPackage.current()
        var problems: [String] = []
        let closure = package.closure(of: "TracksnapCapture").merging(package.closure(of: "TracksnapExampleApp")) { $1 }
        for target in closure.keys.sorted() {
            guard let described = package.target(target), described.moduleType == "SwiftTarget" else { continue }
            for source in described.sources ?? [] {
                let path = "\(described.path)/\(source)"
                let text = try String(contentsOf: PackagePaths.root.appending(path: path), encoding: .utf8)
                problems += unguardedLinuxImports(in: text).map { "\(path):\($0.line): import \($0.module)" }
            }
        }
        #expect(problems.isEmpty, "not under #if canImport(…) or #if os(Linux):\n\(problems.joined(separator: "\n"))")
    }

    // The checks above must be able to fail: the regressions they exist for, each caught.

    @Test("a capture that depends on Core again is reported with the chain that reaches PCRE2")
    func coreDependencyIsCaught() async throws {
        var package = try await DescribedPackage.current()
        package.addDependency("TracksnapSnapshot", to: "TracksnapCapture")
        let problems = package.appLinkProblems(of: "TracksnapCapture")
        #expect(problems.contains { $0.hasPrefix("TracksnapCapture → TracksnapSnapshot → Patterns:") }, "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix("TracksnapCapture → TracksnapSnapshot → Patterns → CPCRE2:")
                    && $0.contains("system library")
            }, "\(problems)")
    }

    @Test("a capture that depends on the server is reported with its SwiftNIO products")
    func serverDependencyIsCaught() async throws {
        var package = try await DescribedPackage.current()
        package.addDependency("TracksnapServer", to: "TracksnapCapture")
        let problems = package.appLinkProblems(of: "TracksnapCapture")
        #expect(
            problems.contains { $0.hasPrefix("TracksnapCapture → TracksnapServer:") && $0.contains("NIOPosix") },
            "\(problems)")
    }

    @Test("an unguarded import Glibc is found; guarded ones are not")
    func unguardedImportIsCaught() {
        let source = """
            import Foundation
            #if canImport(Glibc)
                import Glibc
            #elseif canImport(Musl)
                import Musl
            #endif
            #if os(Linux)
                import FoundationNetworking
            #else
                import Glibc
            #endif
            import Glibc
            """
        let found = unguardedLinuxImports(in: source)
        #expect(found.map(\.line) == [10, 12], "\(found)")
    }
}

/// Modules that exist on Linux only: an iOS build of a file that imports one without `#if` fails.
private let linuxOnlyModules: Set<String> = ["Glibc", "Musl", "FoundationNetworking", "FoundationXML"]

/// The imports of Linux-only modules in a Swift source that no enclosing `#if` (or `#elseif`)
/// guards with `canImport(Module)` or `os(Linux)`; an `#else` branch guards nothing.
private func unguardedLinuxImports(in source: String) -> [(line: Int, module: String)] {
    var conditions: [String] = []  // the condition of each open #if branch; "" in an #else
    var found: [(line: Int, module: String)] = []
    for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if line.hasPrefix("#if ") {
            conditions.append(String(line.dropFirst(4)))
        } else if line.hasPrefix("#elseif "), !conditions.isEmpty {
            conditions[conditions.count - 1] = String(line.dropFirst(8))
        } else if line.hasPrefix("#else"), !conditions.isEmpty {
            conditions[conditions.count - 1] = ""
        } else if line.hasPrefix("#endif"), !conditions.isEmpty {
            conditions.removeLast()
        } else if let module = importedModule(line), linuxOnlyModules.contains(module) {
            let guarded = conditions.contains { $0.contains("canImport(\(module))") || $0.contains("os(Linux)") }
            if !guarded { found.append((index + 1, module)) }
        }
    }
    return found
}
