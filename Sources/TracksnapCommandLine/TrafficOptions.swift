import ArgumentParser
import Foundation
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// The options `validate` and `record` share: the captured traffic and the profile.
struct TrafficOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A capture file: HAR 1.2, tracksnap NDJSON, or a JSON array of its records; - is standard input (repeat to join several, in order).",
            valueName: "file"))
    var capture: [String] = []

    @Option(
        help: ArgumentHelp(
            "A profile name (Validators/NAME.json, else built in: segment, ga4…) or path, or several joined by commas (segment,ga4); otherwise the snapshot's \"validator\", else default.",
            valueName: "name|path"))
    var validator: String?

    @Option(
        help: ArgumentHelp(
            "Where profile names are looked up before the built-in profiles; otherwise the nearest Validators folder beside the snapshot or above it, else ./Validators.",
            valueName: "dir"))
    var validatorsDir: String?

    /// The command line's workspace: profile names in `--validators-dir` (else beside each
    /// snapshot: `Workspace.checking(_:)`); any file may be named.
    var workspace: Workspace { Workspace(validators: validatorsDir) }

    /// What a command that takes the traffic checks first (`CheckedCommand`). Without
    /// `--capture`, a capture named among the command's other files (`tracksnap validate
    /// checkout.json run.har`, by its extension) is named in the error, with the fix.
    func check(beside files: [String] = []) throws {
        guard capture.isEmpty else { return }
        var message = "--capture FILE is required: the captured traffic (HAR or NDJSON)"
        if let named = files.first(where: { CaptureFile.format(named: $0) != nil }) {
            message += "; \(named) is one, named with --capture \(Terminal.shellQuoted(named))"
        }
        throw ValidationError(message)
    }

    /// Every captured request, the files joined in order.
    /// - Throws: `Exit.badInput` after printing the file's error.
    func requests() throws -> [CapturedRequest] {
        var requests: [CapturedRequest] = []
        for file in capture {
            do {
                requests += try CaptureFile.read(path: file)
            } catch {
                // As every other file's problem is written: `run.har: error: no such file`.
                Terminal.error(error.diagnostics.map(\.description).joined(separator: "\n"))
                throw Exit.badInput
            }
        }
        return requests
    }

    /// The exact command that re-records a snapshot from this traffic: what accepts a new
    /// result, shell-quoted so that a reviewer can paste it.
    ///
    /// ```swift
    /// traffic.acceptCommand(for: "Snapshots/my checkout.json")
    /// // tracksnap record 'Snapshots/my checkout.json' --capture run.har --mode all
    /// ```
    func acceptCommand(for snapshot: String) -> String {
        recordCommand(for: snapshot) + " --mode all"
    }

    /// The command that records a snapshot from this traffic, with this profile, shell-quoted.
    func recordCommand(for snapshot: String) -> String {
        var words = ["tracksnap", "record", snapshot]
        for file in capture { words += ["--capture", file] }
        if let validator { words += ["--validator", validator] }
        if let validatorsDir { words += ["--validators-dir", validatorsDir] }
        return words.map(Terminal.shellQuoted).joined(separator: " ")
    }
}
