import Foundation
import Testing

/// The guide's command line of one's own (Documentation/SnapshotsAndProfiles.md, "The command line
/// with a decoder of your own"), built from its target and `main.swift` as shown: a profile names
/// its TelemetryDeck decoder, which the `tracksnap` executable does not have.
@Suite("a command line of one's own, with a decoder tracksnap has not built in")
struct CommandLineTests {
    @Test("validate --validator telemetrydeck passes on the snapshot's signals, and fails on a renamed one")
    func validatesThroughItsDecoder() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "shop-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try write(
            #"{"decoders": ["telemetrydeck"], "filter": {"vendor": "telemetrydeck"}}"#,
            to: directory.appending(path: "Validators/telemetrydeck.json"))
        try write(
            """
            {"name": "launch", "events": [
              {"vendor": "telemetrydeck", "name": "appLaunched"},
              {"vendor": "telemetrydeck", "name": "screenShown", "properties": {"screen": "Home"}}
            ]}
            """, to: directory.appending(path: "Snapshots/launch.json"))
        try write(capture(["appLaunched", "screenShown"]), to: directory.appending(path: "launch.ndjson"))
        try write(capture(["appLaunched", "screenOpened"]), to: directory.appending(path: "renamed.ndjson"))

        let arguments = ["validate", "Snapshots/launch.json", "--validator", "telemetrydeck", "--capture"]
        let passing = try run(arguments + ["launch.ndjson"], in: directory)
        #expect(passing.status == 0, "\(passing.output)")
        let renamed = try run(arguments + ["renamed.ndjson"], in: directory)
        #expect(renamed.status == 1, "\(renamed.output)")
        #expect(renamed.output.contains("screenOpened"), "\(renamed.output)")
    }

    /// One TelemetryDeck-shaped request: a JSON array of signals, each named by its `type`.
    func capture(_ types: [String]) -> String {
        let signals = types.map { #"{\"type\":\"\#($0)\",\"payload\":{\"screen\":\"Home\"}}"# }
        return #"{"id":"1","method":"POST","url":"https://nom.telemetrydeck.com/v2/","#
            + #""headers":[{"name":"Content-Type","value":"application/json"}],"#
            + #""body":"[\#(signals.joined(separator: ","))]","time":"2026-11-28T10:00:00.000Z"}"# + "\n"
    }

    func write(_ text: String, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Runs the built `shop-tracksnap`, found beside the test runner, and gives its exit status
    /// and what it wrote on stdout and stderr.
    func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates =
            [runner.deletingLastPathComponent()]
            + Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }.map {
                $0.deletingLastPathComponent()
            }
        let executable = try #require(
            candidates.map { $0.appending(path: "shop-tracksnap") }.first {
                FileManager.default.isExecutableFile(atPath: $0.path)
            }, "shop-tracksnap is not built beside the test runner: looked in \(candidates.map(\.path))")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
