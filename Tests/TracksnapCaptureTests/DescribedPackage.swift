import Foundation
import TracksnapTestSupport

/// `Glibc` for `import Glibc`, `@preconcurrency import Glibc`, `internal import Glibc` or
/// `import struct Glibc.stat`.
func importedModule(_ line: String) -> String? {
    let words = line.split(separator: " ").filter { !$0.hasPrefix("@") && !accessModifiers.contains(String($0)) }
    guard words.first == "import", let last = words.last, words.count >= 2 else { return nil }
    return String(last.split(separator: ".").first ?? last)
}

private let accessModifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private"]

/// Every module a Swift source imports, with its line, under `#if` or not; lines inside a
/// multi-line string literal (a script a test runs, say) are not imports.
func imports(in source: String) -> [(line: Int, module: String)] {
    var inString = false
    var found: [(line: Int, module: String)] = []
    for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if !inString, let module = importedModule(line) { found.append((index + 1, module)) }
        if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
    }
    return found
}

/// The package as `swift package describe --type json` prints it: only what these tests read.
struct DescribedPackage: Decodable, Sendable {
    struct Platform: Decodable, Equatable, Sendable { var name: String, version: String }
    struct Target: Decodable, Sendable {
        var name: String
        var type: String
        var moduleType: String
        var path: String
        var sources: [String]?
        var targetDependencies: [String]?
        var productDependencies: [String]?
    }

    struct Product: Decodable, Sendable {
        var name: String
        var targets: [String]
    }

    var platforms: [Platform]
    var products: [Product]
    var targets: [Target]

    /// This package, described once for all the tests by the `swift` on the PATH.
    static func current() async throws -> DescribedPackage { try await described.value }

    private static let described = Task { try await describe() }

    /// `swift package describe`, in a scratch directory of its own, so that it never waits for
    /// the lock the running `swift test` holds on `.build`.
    private static func describe() async throws -> DescribedPackage {
        try await withTemporaryDirectory { scratch in
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["swift", "package", "--scratch-path", scratch.path, "describe", "--type", "json"],
                in: PackagePaths.root, timeout: 300)
            guard result.status == 0 else { throw DescribeFailure(stderr: result.stderr) }
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(DescribedPackage.self, from: Data(result.stdout.utf8))
        }
    }

    struct DescribeFailure: Error, CustomStringConvertible {
        var stderr: String
        var description: String { "swift package describe failed: \(stderr)" }
    }

    func target(_ name: String) -> Target? { targets.first { $0.name == name } }

    /// Every target `root` reaches through target dependencies, with the shortest chain from
    /// `root` to it (`root` itself included, as `[root]`).
    func closure(of root: String) -> [String: [String]] {
        shortestChains(from: root) { target($0)?.targetDependencies ?? [] }
    }

    /// Why an iOS app could not link `root`, one line per target at fault, each naming the
    /// chain that reaches it: `Patterns` (PCRE2), a system library other than zlib (found with
    /// pkg-config, which an iOS build has not; libz is in every Apple SDK), a package product
    /// (SwiftNIO and the rest: more for the app to build, none of it checked for iOS here).
    func appLinkProblems(of root: String) -> [String] {
        closure(of: root).sorted {
            $0.value.count == $1.value.count ? $0.key < $1.key : $0.value.count < $1.value.count
        }
        .compactMap { name, chain in
            let place = chain.joined(separator: " → ")
            guard let target = target(name) else { return "\(place): not a target of this package" }
            if name == "Patterns" { return "\(place): PCRE2 patterns, which the iOS SDK has not" }
            if target.type == "system-target", name != "CZlib" {
                return "\(place): a system library found with pkg-config, which an iOS build has not"
            }
            if let products = target.productDependencies, !products.isEmpty {
                return "\(place): uses the package products \(products.joined(separator: ", "))"
            }
            return nil
        }
    }

    /// The package with one more target dependency: the regressions the checks must catch.
    mutating func addDependency(_ dependency: String, to name: String) {
        guard let index = targets.firstIndex(where: { $0.name == name }) else { return }
        targets[index].targetDependencies = (targets[index].targetDependencies ?? []) + [dependency]
    }

    /// The package with one target dependency less: an import left undeclared.
    mutating func removeDependency(_ dependency: String, from name: String) {
        guard let index = targets.firstIndex(where: { $0.name == name }) else { return }
        targets[index].targetDependencies?.removeAll { $0 == dependency }
    }
}

extension DescribedPackage {
    /// The targets that build a module or a library: every target but the test targets.
    var moduleTargets: [Target] { targets.filter { $0.type != "test" } }

    /// What `name` declares in Package.swift: its targets and its products, one set.
    func declaredDependencies(of name: String) -> Set<String> {
        Set((target(name)?.targetDependencies ?? []) + (target(name)?.productDependencies ?? []))
    }

    /// The imports in `name`'s Swift sources, each with its file and line.
    func sourceImports(of name: String) throws -> [(place: String, module: String)] {
        guard let target = target(name), target.moduleType == "SwiftTarget" else { return [] }
        return try (target.sources ?? []).flatMap { source in
            let path = "\(target.path)/\(source)"
            let text = try String(contentsOf: PackagePaths.root.appending(path: path), encoding: .utf8)
            return imports(in: text).map { (place: "\(path):\($0.line)", module: $0.module) }
        }
    }
}

/// Every node `root` reaches through `next`, with the shortest chain from `root` to it (`root`
/// itself included, as `[root]`).
func shortestChains(from root: String, next: (String) -> [String]) -> [String: [String]] {
    var chains = [root: [root]]
    var queue = [root]
    while !queue.isEmpty {
        let name = queue.removeFirst()
        for following in next(name) where chains[following] == nil {
            chains[following] = chains[name, default: []] + [following]
            queue.append(following)
        }
    }
    return chains
}
