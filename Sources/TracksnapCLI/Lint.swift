import ArgumentParser
import Foundation
import TracksnapCore
import TracksnapJSON
import TracksnapModel
import TracksnapReplay
import TracksnapValidation

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check snapshot and profile files without a capture.",
        discussion: """
            Reports malformed JSON, unknown keys and matchers, invalid patterns (with PCRE2's \
            message and offset) as errors; a literal that looks like a forgotten pattern, a $regex \
            with no metacharacter and a key written twice as warnings. Files under a Validators \
            directory (or naming the profile schema in $schema) are profiles; files laid out as an \
            Iglu registry (schemas/VENDOR/NAME/jsonschema/1-0-0) are Snowplow schemas; YAML files of \
            RudderStack's Data Catalog (version: rudder/…) are tracking plans, checked with their \
            folder's events, properties and custom types; files under a Cassettes directory, and \
            other YAML files, are cassettes (any format tracksnap replays); the others are snapshots. A profile file named after a built-in profile gets a note: it overrides \
            the built-in one wherever it is looked up. Exit 0 with no error, 1 with errors \
            (or warnings, with --strict), 2 when a path does not exist or holds no JSON file.
            """
    )

    @Argument(help: "Files or directories (default: Snapshots, Validators and Cassettes).")
    var paths: [String] = []

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let roots =
            paths.isEmpty
            ? ["Snapshots", "Validators", "Cassettes"].filter { FileManager.default.fileExists(atPath: $0) } : paths
        let workspace = Workspace()
        let files: [String]
        do {
            files = try workspace.files(roots, field: "path")
        } catch {
            Terminal.error(error.description)
            throw Exit.badInput
        }
        // "0 files checked: 0 errors" would pass a run from the wrong directory.
        guard !files.isEmpty else {
            Terminal.error(
                paths.isEmpty
                    ? "error: no Snapshots, Validators or Cassettes directory here; run from the project root or name the files to check"
                    : "\(paths.joined(separator: ", ")): error: no JSON files found")
            throw Exit.badInput
        }
        var errors = 0
        var warnings = 0
        var seen: Set<String> = []
        for file in files {
            let diagnostics: [Diagnostic]
            do {
                if TrackingPlan.igluRegistry(containing: file) != nil {
                    // A registry is read whole (its schemas refer to each other); each file gets its own problems.
                    diagnostics = TrackingPlan.lintIglu(file: file)
                } else if TrackingPlan.isRudderStack(file: file) {
                    // A folder's plan files share its catalog: report each problem once.
                    diagnostics = TrackingPlan.lintRudderStack(file: file).filter {
                        seen.insert($0.description).inserted
                    }
                } else if Self.isCassette(file) {
                    let read = try Cassette.read(path: file)
                    diagnostics = read.warnings + read.cassette.credentialWarnings(file: file)
                } else {
                    let document = try JSONDocument.load(path: file)
                    if Validation.isProfile(document), let note = Self.overrideNote(file) { print(note) }
                    diagnostics = Validation.lint(document: document, workspace: workspace)
                }
            } catch {
                diagnostics = error.diagnostics
            }
            for diagnostic in diagnostics.sorted(by: {
                ($0.location ?? .init(line: 0, column: 0)) < ($1.location ?? .init(line: 0, column: 0))
            }) {
                print(diagnostic.description)
                if diagnostic.severity == .error { errors += 1 } else { warnings += 1 }
            }
        }
        print(
            "\(files.count) file\(files.count == 1 ? "" : "s") checked: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        )
        if errors > 0 || (strict && warnings > 0) { throw Exit.mismatches }
    }

    /// Whether a file is a cassette: under a `Cassettes` directory, or YAML (VCR's and vcrpy's).
    static func isCassette(_ file: String) -> Bool {
        file.split(separator: "/").dropLast().contains("Cassettes") || file.hasSuffix(".yml") || file.hasSuffix(".yaml")
    }

    /// `Validators/segment.json: note: …` when a profile file takes a built-in profile's name:
    /// not a problem (it is how a built-in is replaced), but worth saying, since every snapshot
    /// naming it there now gets this file.
    static func overrideNote(_ file: String) -> String? {
        let path = file.split(separator: "/")
        guard path.dropLast().last == "Validators", let name = path.last.map({ String($0.dropLast(".json".count)) }),
            Profile.isBuiltIn(name)
        else { return nil }
        return "\(file): note: overrides the built-in profile \"\(name)\" (<built-in>/\(name).json): "
            + "here, \"\(name)\" means this file; write \"extends\": \"\(name)\" in it to build on the built-in"
    }
}
