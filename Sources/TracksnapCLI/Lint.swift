import ArgumentParser
import Foundation
import TracksnapCore
import TracksnapValidation

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check snapshot and profile files without a capture.",
        discussion: """
            Reports malformed JSON, unknown keys and matchers, invalid patterns (with PCRE2's \
            message and offset) as errors; a literal that looks like a forgotten pattern, a $regex \
            with no metacharacter and a key written twice as warnings. Files under a Validators \
            directory are profiles; the others are snapshots. Exit 0 with no error, 1 with errors \
            (or warnings, with --strict), 2 when a path does not exist or holds no JSON file.
            """
    )

    @Argument(help: "Files or directories (default: Snapshots and Validators).")
    var paths: [String] = []

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let roots = paths.isEmpty ? ["Snapshots", "Validators"].filter { FileManager.default.fileExists(atPath: $0) } : paths
        let files: [String]
        do {
            files = try Terminal.jsonFiles(roots)
        } catch {
            Terminal.error(error.description)
            throw Exit.badInput
        }
        // "0 files checked: 0 errors" would pass a run from the wrong directory.
        guard !files.isEmpty else {
            Terminal.error(
                paths.isEmpty
                    ? "error: no Snapshots or Validators directory here; run from the project root or name the files to check"
                    : "\(paths.joined(separator: ", ")): error: no JSON files found")
            throw Exit.badInput
        }
        var errors = 0, warnings = 0
        for file in files {
            let diagnostics: [Diagnostic]
            do {
                let document = try JSONDocument.load(path: file)
                diagnostics = Self.isProfile(file, document) ? Profile.lintWithDecoders(document: document) : Snapshot.lint(document: document)
            } catch {
                diagnostics = error.diagnostics
            }
            for diagnostic in diagnostics.sorted(by: { ($0.location ?? .init(line: 0, column: 0)) < ($1.location ?? .init(line: 0, column: 0)) }) {
                print(diagnostic.description)
                if diagnostic.severity == .error { errors += 1 } else { warnings += 1 }
            }
        }
        print("\(files.count) file\(files.count == 1 ? "" : "s") checked: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        if errors > 0 || (strict && warnings > 0) { throw Exit.mismatches }
    }

    /// Profiles live under a `Validators` directory; elsewhere, a document with a `filter` and
    /// no expectations is one too.
    static func isProfile(_ file: String, _ document: JSONDocument) -> Bool {
        if file.split(separator: "/").dropLast().contains("Validators") { return true }
        guard let top = document.value.objectValue else { return false }
        return top["requests"] == nil && top["events"] == nil && top["filter"] != nil
    }
}
