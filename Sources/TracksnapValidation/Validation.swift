import TracksnapCore
import TracksnapDecoders
import TracksnapModel

/// Loads snapshots and profiles from files and validates captured traffic against them.
public enum Validation {
    /// Validates captured requests against a snapshot file.
    ///
    /// ```swift
    /// let requests = try CaptureFile.read(path: "capture.har")
    /// let result = try Validation.validate(snapshotAt: "Snapshots/checkout.json", requests: requests)
    /// result.passed
    /// ```
    /// - Parameters:
    ///   - path: the snapshot file.
    ///   - requests: everything captured, in order.
    ///   - profileReference: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
    ///   - directory: where profile names are looked up.
    /// - Throws: `InputError` for a bad snapshot, a missing or bad profile, or an unknown validator.
    public static func validate(
        snapshotAt path: String, requests: [CapturedRequest], profile profileReference: String? = nil,
        directory: String = "Validators"
    ) throws(InputError) -> SnapshotResult {
        try validate(
            try Snapshot.load(path: path), file: path, requests: requests, profile: profileReference,
            directory: directory)
    }

    /// Validates captured requests against a snapshot already read (from a request's body, say).
    ///
    /// ```swift
    /// let snapshot = try Snapshot.parse(Array(text.utf8), file: "inline")
    /// let result = try Validation.validate(snapshot, file: "inline", requests: requests)
    /// ```
    /// - Parameters:
    ///   - snapshot: the snapshot.
    ///   - file: how errors name the snapshot.
    ///   - requests: everything captured, in order.
    ///   - profileReference: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
    ///   - directory: where profile names are looked up.
    /// - Throws: `InputError` for a missing or bad profile, or an unknown validator.
    public static func validate(
        _ snapshot: Snapshot, file path: String, requests: [CapturedRequest], profile profileReference: String? = nil,
        directory: String = "Validators"
    ) throws(InputError) -> SnapshotResult {
        if profileReference == nil {
            let unknown = Profile.unknownNames(in: snapshot, directory: directory)
            if !unknown.isEmpty { throw InputError(unknown) }
        }
        let profile = try Profile.load(profileReference ?? snapshot.validator ?? "default", directory: directory)
        if let unknown = profile.decoders.unknownNames.first {
            throw InputError(file: profile.file ?? path, message: DecoderChoice.unknownMessage(unknown))
        }
        guard let validator = ValidatorRegistry.validator(named: profile.validator) else {
            throw InputError(
                file: profile.file ?? path, message: "no validator is registered as \"\(profile.validator)\"")
        }
        return validator.validate(snapshot, requests: requests, profile: profile)
    }

    /// Every error and warning in a snapshot or profile file, for `tracksnap lint`: the file's
    /// own problems (each at its line and column, duplicate keys as warnings), and for a snapshot
    /// the profiles its `validator` names that do not exist.
    ///
    /// ```swift
    /// let document = try JSONDocument.load(path: "Validators/shop.json")
    /// Validation.lint(document: document)  // [Validators/shop.json:4:13: error: no decoder "segmnet"; decoders: …]
    /// ```
    /// - Parameters:
    ///   - document: the parsed file (`isProfile(_:)` tells a profile from a snapshot).
    ///   - directory: where a snapshot's profile names are looked up, before the built-in ones.
    public static func lint(document: JSONDocument, directory: String = "Validators") -> [Diagnostic] {
        if isProfile(document) { return Profile.lint(document: document) }
        let diagnostics = Snapshot.lint(document: document)
        guard let snapshot = try? Snapshot.parse(document: document) else { return diagnostics }
        return diagnostics + Profile.unknownNames(in: snapshot, directory: directory)
    }

    /// Whether a file is a profile rather than a snapshot: one under a `Validators` directory;
    /// elsewhere, one that names the profile schema, or has a `filter` and no expectations.
    public static func isProfile(_ document: JSONDocument) -> Bool {
        if document.file.split(separator: "/").dropLast().contains("Validators") { return true }
        guard let top = document.value.objectValue else { return false }
        if top["$schema"]?.stringValue?.hasSuffix("profile.schema.json") == true { return true }
        return top["requests"] == nil && top["events"] == nil && top["filter"] != nil
    }
}
