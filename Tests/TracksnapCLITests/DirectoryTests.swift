import Foundation
import Testing
import TracksnapTestSupport

@Suite("validate DIRECTORY: every snapshot below it", .tags(.process), .leftToMakeTest)
struct DirectoryTests {
    /// A tree of two snapshots at different depths, plus files that are not snapshots: a
    /// pending `.new.json` (broken, so that reading it would show) and a text file.
    static func makeTree(in directory: URL) throws -> [String] {
        let demo = try String(contentsOf: PackagePaths.root.appending(path: DemoTests.snapshot), encoding: .utf8)
        let first = directory.appending(path: "web/checkout.json")
        let second = directory.appending(path: "web/v2/nested/checkout-again.json")
        try write(demo, to: first)
        try write(demo, to: second)
        try write("{ not json", to: directory.appending(path: "web/checkout.new.json"))
        try write("notes\n", to: directory.appending(path: "README.txt"))
        return [first.path, second.path]
    }

    @Test(
        "each snapshot below the directory is validated, and pending .new.json files are not",
        arguments: [
            (DemoTests.release14, Int32(0)), (DemoTests.release15, Int32(1)),
        ])
    func everySnapshot(capture: String, status: Int32) throws {
        try withTemporaryDirectory { directory in
            let expected = try Self.makeTree(in: directory)
            let run = try tracksnap("validate", directory.path, "--capture", capture, "--format", "json")
            #expect(run.status == status, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
            let top = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let snapshots = try #require(top["snapshots"] as? [[String: Any]])
            let files = snapshots.compactMap { $0["file"] as? String }
            #expect(files.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.sorted() == expected.sorted())
            #expect(snapshots.allSatisfy { $0["passed"] as? Bool == (status == 0) })
        }
    }

    @Test("the text summary counts the snapshots of a directory")
    func summaryCounts() throws {
        try withTemporaryDirectory { directory in
            _ = try Self.makeTree(in: directory)
            let run = try tracksnap("validate", directory.path, "--capture", DemoTests.release15)
            #expect(run.status == 1)
            #expect(run.stdout.contains("2 snapshots: 0 passed, 2 failed (6 findings)"))
        }
    }

    @Test("a snapshot that cannot be read beside ones that pass fails the run, and the last word says so")
    func unreadableBesidePassing() throws {
        try withTemporaryDirectory { directory in
            _ = try Self.makeTree(in: directory)
            let broken = directory.appending(path: "broken.json")
            try write(#"{"requests": ["#, to: broken)
            let run = try tracksnap("validate", directory.path, "--capture", DemoTests.release14)
            #expect(run.status == 2)
            #expect(run.stdout.contains("2 snapshots: 2 passed, 0 failed"), "\(run.stdout)")
            #expect(
                run.stderr.hasSuffix(
                    "1 more snapshot could not be read (\(broken.path): the errors above), so the run fails\n"),
                "\(run.stderr)")
        }
    }
}
