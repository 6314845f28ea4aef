import Foundation
import Testing
import TracksnapTestSupport

@Suite("Help and version", .tags(.process), .leftToMakeTest)
struct HelpTests {
    @Test(
        "--help exits 0 and describes the command",
        arguments: [
            ["--help"], ["validate", "--help"], ["lint", "--help"], ["help", "validate"],
        ])
    func help(arguments: [String]) throws {
        let run = try tracksnap(arguments: arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("USAGE: tracksnap"))
        #expect(run.stdout.contains("OVERVIEW:"))
    }

    @Test("the top-level help lists both subcommands and the exit codes")
    func topLevelHelp() throws {
        let run = try tracksnap("--help")
        for needle in ["validate", "lint", "Exit codes"] {
            #expect(run.stdout.contains(needle))
        }
    }

    @Test("--version prints the version the command declares")
    func version() throws {
        let source = try SourceText(path: "Sources/TracksnapCommandLine/Tracksnap.swift")
        let declaration = try #require(source.location(of: "version: \""))
        let line = source.lines[declaration.line - 1]
        let declared = line.split(separator: "\"").dropFirst().first.map(String.init)
        let run = try tracksnap("--version")
        #expect(run.status == 0)
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == declared)
    }
}
