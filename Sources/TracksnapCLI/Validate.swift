import ArgumentParser
import Foundation
import TracksnapCore
import TracksnapReports
import TracksnapValidation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare captured traffic with snapshots.",
        discussion: """
            Each snapshot is checked under its profile: --validator if given, else the snapshot's \
            "validator", else "default", looked up as Validators/NAME.json. A directory stands for \
            every snapshot below it. Exit 0 when all pass, 1 on mismatches, 2 on bad input.
            """
    )

    @Argument(help: "Snapshot files or directories of them.")
    var snapshots: [String]

    @Option(help: ArgumentHelp("A capture file: HAR 1.2 or tracksnap NDJSON (repeat to join several, in order).", valueName: "file"))
    var capture: [String] = []

    @Option(help: ArgumentHelp("A profile name (Validators/NAME.json) or path, for every snapshot.", valueName: "name|path"))
    var validator: String?

    @Option(help: ArgumentHelp("Where profile names are looked up.", valueName: "dir"))
    var validatorsDir = "Validators"

    @Option(help: ArgumentHelp("text, json, junit, github, markdown or html.", valueName: "format"))
    var format = "text"

    @Option(help: ArgumentHelp("Write the report to this file (the terminal still gets the text report).", valueName: "file"))
    var output: String?

    @Option(help: "Colour: auto, always or never.")
    var color: Terminal.ColorChoice = .auto

    func validate() throws {
        guard !capture.isEmpty else { throw ValidationError("--capture FILE is required: the traffic to check (HAR or NDJSON)") }
        guard ReportFormat.named(format) != nil else {
            throw ValidationError("unknown format \"\(format)\"; use \(ReportFormat.all.map(\.name).joined(separator: ", "))")
        }
    }

    func run() throws {
        var requests: [CapturedRequest] = []
        for file in capture {
            do {
                requests += try CaptureFile.read(path: file)
            } catch {
                Terminal.error("\(error.description)")
                throw Exit.badInput
            }
        }
        let files: [String]
        do {
            files = try Terminal.jsonFiles(snapshots)
        } catch {
            Terminal.error(error.description)
            throw Exit.badInput
        }
        guard !files.isEmpty else {
            Terminal.error("\(snapshots.joined(separator: ", ")): error: no snapshot files (*.json) found")
            throw Exit.badInput
        }

        var results: [SnapshotResult] = []
        var badInput = false
        for file in files {
            do {
                results.append(try Validation.validate(snapshotAt: file, requests: requests, profile: validator, directory: validatorsDir))
            } catch {
                Terminal.error(error.description)
                badInput = true
            }
        }

        // With every snapshot unreadable, an empty report would read as a pass ("passed": true).
        guard !results.isEmpty else { throw Exit.badInput }

        let format = ReportFormat.named(format) ?? .text
        let acceptOptions = ReportOptions(acceptCommand: { [capture, validator, validatorsDir] result in
            AcceptCommand.record(snapshot: result.file, captures: capture, validator: validator, validatorsDir: validatorsDir)
        })
        var terminalOptions = acceptOptions
        terminalOptions.color = Terminal.useColor(color)
        if let output {
            do {
                try Terminal.writeAtomically(format.render(results, options: acceptOptions), to: output)
            } catch {
                Terminal.error("\(output): error: cannot write the report: \(error.localizedDescription)")
                throw Exit.badInput
            }
            print(ReportFormat.text.render(results, options: terminalOptions), terminator: "")
        } else {
            print(format.render(results, options: format.name == "text" ? terminalOptions : acceptOptions), terminator: "")
        }
        if format.name == "github", let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty,
            let handle = FileHandle(forWritingAtPath: summary)
        {
            handle.seekToEndOfFile()
            handle.write(Data(ReportFormat.markdown.render(results, options: acceptOptions).utf8))
            try? handle.close()
        }
        if badInput { throw Exit.badInput }
        if !results.allSatisfy(\.passed) { throw Exit.mismatches }
    }
}
