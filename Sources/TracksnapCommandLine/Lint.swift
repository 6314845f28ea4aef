import ArgumentParser
import Foundation
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation
import TracksnapYAML

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check snapshot and profile files without a capture.",
        discussion: """
            Reports malformed JSON, unknown keys and matchers, invalid patterns (with PCRE2's \
            message and offset) as errors; a literal that looks like a forgotten pattern, a $regex \
            with no metacharacter and a key written twice as warnings. Files laid out as an \
            Iglu registry (schemas/VENDOR/NAME/jsonschema/1-0-0) are Snowplow schemas; YAML files of \
            RudderStack's Data Catalog (version: rudder/…) are tracking plans, checked with their \
            folder's events, properties and custom types. Every other file is told by its shape, \
            wherever it is: a cassette (tracksnap's, DVR's, Vinyl's, VCR's, vcrpy's, HAR; a YAML \
            file that does not parse too), a capture (a .har, .ndjson or .jsonl file named by hand, \
            or a JSON file holding captured requests: read as --capture reads it), a tracking plan, a profile (one naming the profile schema in $schema, or with \
            a key only profiles have; one that could be either, under a Validators directory), else \
            a snapshot. Lint says what it took the files for, and each file with a problem. A \
            profile file named after a built-in profile gets a note: it overrides \
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
        var checked = 0
        var errors = 0
        var warnings = 0
        var seen: Set<String> = []
        var kinds: [Kind: Int] = [:]
        // Each file is checked as the listing finds it, through the parse that told it.
        do {
            try workspace.forEachFile(roots, field: "path", cassettes: Cassette.isCassette) { file, listed in
                checked += 1
                let (kind, found) = Self.check(file, source: listed, workspace: workspace)
                kinds[kind, default: 0] += 1
                // A folder's RudderStack plan files share its catalog: each problem is reported once.
                let diagnostics = kind == .rudderStack ? found.filter { seen.insert($0.description).inserted } : found
                for diagnostic in diagnostics.sorted(by: {
                    ($0.location ?? .init(line: 0, column: 0)) < ($1.location ?? .init(line: 0, column: 0))
                }) {
                    print(diagnostic.description)
                    if diagnostic.severity == .error { errors += 1 } else { warnings += 1 }
                }
                if !diagnostics.isEmpty { print("\(file): note: checked as \(kind.name(1, article: true))") }
            }
        } catch {
            Terminal.error(error.description)
            throw Exit.badInput
        }
        // "0 files checked: 0 errors" would pass a run from the wrong directory.
        guard checked > 0 else {
            Terminal.error(
                paths.isEmpty
                    ? "error: no Snapshots, Validators or Cassettes directory here; run from the project root or name the files to check"
                    : "\(paths.joined(separator: ", ")): error: no JSON files found")
            throw Exit.badInput
        }
        let read = kinds.sorted { ($0.value, $1.key.name(1)) > ($1.value, $0.key.name(1)) }.map { kind, count in
            checked == 1 ? kind.name(1, article: true) : "\(count) \(kind.name(count))"
        }
        print("checked as: \(read.joined(separator: ", "))")
        print(
            "\(checked) file\(checked == 1 ? "" : "s") checked: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        )
        if errors > 0 || (strict && warnings > 0) { throw Exit.mismatches }
    }

    /// What lint took a file for, told by its shape (an Iglu registry and RudderStack's Data
    /// Catalog by their layout and `version`), never by the folder it is in.
    enum Kind: Hashable {
        case snapshot, profile, plan, iglu, rudderStack
        case cassette(Cassette.Format?)
        /// Captured traffic, named to lint: read as `--capture` reads it.
        case capture(CaptureFile.Format)
        /// Not JSON, or a file that cannot be read: its error says why.
        case unreadable

        /// `snapshot`, `snapshots`, `a DVR cassette`…
        func name(_ count: Int, article: Bool = false) -> String {
            let (singular, vowel) =
                switch self {
                case .snapshot: ("snapshot", false)
                case .profile: ("profile", false)
                case .plan: ("tracking plan", false)
                case .iglu: ("Iglu schema", true)
                case .rudderStack: ("RudderStack Data Catalog file", false)
                case .cassette(let format?): ("\(format.tool) cassette", format == .har)
                case .cassette(nil): ("cassette", false)
                case .capture(.har): ("HAR capture", false)
                case .capture(.ndjson): ("NDJSON capture", true)
                case .capture(.array): ("capture", false)
                case .unreadable: ("unreadable file", true)
                }
            let word = count == 1 ? singular : singular + "s"
            return article ? (vowel ? "an " : "a ") + word : word
        }
    }

    /// Tells a file's kind by its shape, and checks it as that kind.
    /// - Parameter source: the file as a folder's listing parsed it, when it did.
    static func check(_ file: String, source: SourceFile? = nil, workspace: Workspace) -> (Kind, [Diagnostic]) {
        if TrackingPlan.igluRegistry(containing: file) != nil {
            // A registry is read whole (its schemas refer to each other); each file gets its own problems.
            return (.iglu, TrackingPlan.lintIglu(file: file))
        }
        // A capture (HAR, NDJSON) is named to lint by hand only: a folder's listing holds JSON and YAML.
        if let format = CaptureFile.format(named: file) { return (.capture(format), capture(file)) }
        // The file is parsed once, as YAML or JSON, for the listing's questions and those below.
        let source = source ?? SourceFile(path: file)
        if TrackingPlan.isRudderStack(source) { return (.rudderStack, TrackingPlan.lintRudderStack(file: file)) }
        // RudderStack's YAML is told above; the rule for the rest is the one a folder's listing asks.
        if Cassette.isCassette(source) {
            do throws(InputError) {
                let (cassette, warnings) = try Cassette.read(source)
                return (.cassette(cassette.format), warnings + cassette.credentialWarnings(file: file))
            } catch {
                return (.cassette(Cassette.format(of: source)), error.diagnostics)
            }
        }
        do throws(InputError) {
            // The parse that told it was no cassette, unless it holds a trailing comma: read
            // strictly then, for the error at its place.
            let document: JSONDocument
            if let loose = try? source.json(), loose.trailingCommas.isEmpty {
                document = loose
            } else {
                document = try JSONDocument.load(path: file)
            }
            if let format = CaptureFile.format(ofDocument: document.value) {
                return (.capture(format), capture(file))
            }
            let kind: Kind =
                TrackingPlan.Format.isPlan(document.value)
                ? .plan : Validation.isProfile(document) ? .profile : .snapshot
            if kind == .profile, let note = Self.overrideNote(file) { print(note) }
            // A snapshot's profile names mean what they mean where it lies (`Workspace.checking`).
            return (kind, Validation.lint(document: document, workspace: workspace.checking(file)))
        } catch {
            return (.unreadable, error.diagnostics)
        }
    }

    /// A capture's problems: those reading it as `--capture` does meets.
    private static func capture(_ file: String) -> [Diagnostic] {
        do throws(CaptureFileError) {
            _ = try CaptureFile.read(path: file)
            return []
        } catch {
            return error.diagnostics
        }
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
