import Foundation
import Testing
import TracksnapFuzzing
import TracksnapTestSupport

@Suite("Fuzz inputs keep every property")
struct FuzzInputTests {
    /// One file fed to one target.
    struct Case: Sendable, CustomTestStringConvertible {
        let target: String
        let file: String
        var testDescription: String { "\(target): \(file)" }
    }

    /// The files under a folder of the package, relative to its root, sorted.
    static func files(under folder: String) -> [String] {
        let root = PackagePaths.root.appending(path: folder).path
        let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return names.filter { name in
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(root)/\(name)", isDirectory: &directory)
                && !directory.boolValue
        }.map { "\(folder)/\($0)" }.sorted()
    }

    /// Every crash or violation `make fuzz` found, and hand-written seeds, kept in `Tests/Fuzz/<target>/`.
    static let regressions = FuzzTarget.all.flatMap { target in
        files(under: "Tests/Fuzz/\(target.name)").map { Case(target: target.name, file: $0) }
    }

    /// The repository's fixtures each target's corpus starts from.
    static let seeds = FuzzTarget.all.flatMap { target in
        target.seeds.flatMap(files(under:)).map { Case(target: target.name, file: $0) }
    }

    @Test("an input kept in Tests/Fuzz (a crash found once, or a seed) runs clean", arguments: regressions)
    func regression(_ testCase: Case) throws {
        try run(testCase)
    }

    @Test("a seed of the corpus runs clean", arguments: seeds)
    func seed(_ testCase: Case) throws {
        try run(testCase)
    }

    @Test("every folder a target names as seeds exists: libFuzzer stops on a missing one")
    func seedFoldersExist() {
        for target in FuzzTarget.all {
            for folder in target.seeds {
                var directory: ObjCBool = false
                let path = PackagePaths.root.appending(path: folder).path
                #expect(
                    FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue,
                    "\(target.name) seeds from \(folder), which is no folder")
            }
        }
    }

    @Test("every target has regression inputs or seeds")
    func everyTargetHasInputs() {
        let covered = Set((Self.regressions + Self.seeds).map(\.target))
        #expect(covered == Set(FuzzTarget.all.map(\.name)))
    }

    private func run(_ testCase: Case) throws {
        let target = try #require(FuzzTarget.named(testCase.target))
        let data = try Data(contentsOf: PackagePaths.root.appending(path: testCase.file))
        try target.run(Array(data))
    }
}
