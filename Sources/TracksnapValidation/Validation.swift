import TracksnapDecoders
public import TracksnapJSON
import TracksnapSnapshot
public import TracksnapTraffic

/// Loads snapshots and profiles from files and validates captured traffic against them.
public enum Validation {
    /// Validates captured requests against a snapshot file: `PreparedCheck` for one check.
    ///
    /// ```swift
    /// let requests = try CaptureFile.read(path: "capture.har")
    /// let result = try Validation.validate(snapshotAt: "Snapshots/checkout.json", requests: requests)
    /// result.passed
    /// ```
    /// `consent` declares the user's choice, over the snapshot's and the profile's.
    /// - Throws: `InputError` for a bad snapshot, a missing or bad profile, or an unknown validator.
    public static func validate(
        snapshotAt path: String, requests: [CapturedRequest], profile profileReference: String? = nil,
        plans: [String] = [], consent: ConsentDeclaration? = nil, workspace: Workspace = Workspace()
    ) throws(InputError) -> SnapshotResult {
        try PreparedCheck(snapshotAt: path, profile: profileReference, plans: plans, workspace: workspace)
            .declaring(consent: consent).validate(requests)
    }

    /// Every error and warning in a snapshot, profile or tracking plan file, for `tracksnap lint`:
    /// the file's own problems (each at its line and column, duplicate keys as warnings; for a
    /// plan, each invalid schema and unresolvable `$ref`), and for a snapshot the profiles its
    /// `validator` names that do not exist and, as warnings, the personal data its recorded
    /// values hold (`PersonalData.lintWarnings`).
    ///
    /// ```swift
    /// let document = try JSONDocument.load(path: "Validators/shop.json")
    /// Validation.lint(document: document)  // [Validators/shop.json:4:13: error: no decoder "segmnet"; decoders: …]
    /// ```
    /// - Parameters:
    ///   - document: the parsed file (`isProfile(_:)` tells a profile from a snapshot).
    ///   - workspace: where a snapshot's profile names are looked up, before the built-in ones,
    ///     and the validators and filters a profile may name.
    public static func lint(document: JSONDocument, workspace: Workspace = Workspace()) -> [Diagnostic] {
        if TrackingPlan.Format.isPlan(document.value) {
            do throws(InputError) {
                _ = try TrackingPlan.parse(document: document)
                return document.duplicateKeyWarnings
            } catch {
                return error.diagnostics + document.duplicateKeyWarnings
            }
        }
        if isProfile(document) { return Profile.lint(document: document, extensions: workspace.extensions) }
        let diagnostics = Snapshot.lint(document: document)
        guard let snapshot = try? Snapshot.parse(document: document) else { return diagnostics }
        return diagnostics + Profile.unknownNames(in: snapshot, workspace: workspace)
            + PersonalDataPolicy.applying(snapshot, to: PersonalDataPolicy()).1
            + ConsentDeclaration.applying(snapshot, to: nil).1
            + PersonalData.lintWarnings(in: snapshot, document: document, workspace: workspace)
    }

    /// Reads the snapshot file at `path`, naming it `name`. A file of another kind where a
    /// snapshot was asked for (told as `lint` tells them: a tracking plan, a profile, YAML) is one
    /// error saying what it is and where it is named, not every key a snapshot has no use for.
    ///
    /// ```swift
    /// try Validation.snapshot(at: "Validators/shop.json", named: "Validators/shop.json")
    /// // Validators/shop.json: error: this is a profile, not a snapshot: …
    /// ```
    static func snapshot(at path: String, named name: String) throws(InputError) -> Snapshot {
        if [".yaml", ".yml"].contains(where: name.lowercased().hasSuffix) {
            throw InputError(
                file: name,
                message:
                    "this is YAML, and a snapshot is JSON; a YAML file is read as a RudderStack tracking plan (--plan \(name))"
            )
        }
        let document = try JSONDocument.load(path: path, named: name)
        if TrackingPlan.Format.isPlan(document.value) {
            throw InputError(
                file: name,
                message: "this is a tracking plan, not a snapshot: events are checked against it with --plan \(name)")
        }
        if isProfile(document) {
            throw InputError(
                file: name,
                message:
                    "this is a profile, not a snapshot: it is named with --validator \(name), or in a snapshot's \"validator\""
            )
        }
        return try Snapshot.parse(document: document)
    }

    /// Whether a file is a profile rather than a snapshot, told by its shape: one that names the
    /// profile schema, or has a key only a profile has (`extends`, `filter`, `rules`, `plan`,
    /// `decoders`, `protobuf`, `severity`, `record`) and no expectations (`requests`, `events`). A file
    /// whose shape says neither (`{"name": "x"}`) is a profile under a `Validators` directory.
    package static func isProfile(_ document: JSONDocument) -> Bool {
        guard let top = document.value.objectValue else { return false }
        if let schema = top["$schema"]?.stringValue {
            if schema.hasSuffix("profile.schema.json") { return true }
            if schema.hasSuffix("snapshot.schema.json") { return false }
        }
        if top["requests"] != nil || top["events"] != nil { return false }
        let profileKeys: Set = ["extends", "filter", "rules", "plan", "decoders", "protobuf", "severity", "record"]
        if top.keys.contains(where: profileKeys.contains) { return true }
        return document.file.split(separator: "/").dropLast().contains("Validators")
    }
}
