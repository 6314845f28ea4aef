import TracksnapCore
import TracksnapDecoders

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
        try validate(try Snapshot.load(path: path), file: path, requests: requests, profile: profileReference, directory: directory)
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
        if let unknown = profile.unknownDecoders.first {
            throw InputError(file: profile.file ?? path, message: Profile.unknownDecoderMessage(unknown))
        }
        guard let validator = ValidatorRegistry.validator(named: profile.validator) else {
            throw InputError(file: profile.file ?? path, message: "no validator is registered as \"\(profile.validator)\"")
        }
        return validator.validate(snapshot, requests: requests, profile: profile)
    }
}

extension Profile {
    /// The decoder names this profile lists that no decoder answers to.
    public var unknownDecoders: [String] {
        decoders?.filter { Decoder.named($0) == nil } ?? []
    }

    static func unknownDecoderMessage(_ name: String) -> String {
        "no decoder \"\(name)\"; decoders: \(Decoder.all.map(\.vendor).joined(separator: ", "))"
    }
}
