import Foundation
import TracksnapCore

/// Writes a request-level snapshot from captured traffic, under a profile.
///
/// ```swift
/// let recorder = SnapshotRecorder(profile: try Profile.load("acme-shop"))
/// let requests = try CaptureFile.read(path: "session.har")
/// let snapshot = try recorder.snapshot(from: requests, name: "checkout")
/// try recorder.write(snapshot, to: "Snapshots/checkout.json")
/// ```
///
/// The snapshot lists the requests the profile's filter selects, in capture order, each as
/// `method`, `url` (without the query), `parameters` (query and form), `body` (JSON or text),
/// and the headers the profile's `"record": {"headers": […]}` names. Fields the profile ignores
/// are left out. Secrets (`Secrets`, and the profile's `redact` rules) are written as matchers,
/// never as values. Given the existing snapshot, every matcher that still accepts the new
/// traffic is kept (see `snapshot(from:name:existing:)`).
public struct SnapshotRecorder: Sendable {
    /// The filter, ignore and redact rules, and the headers to keep.
    public var profile: Profile

    /// A recorder for one profile.
    ///
    /// ```swift
    /// let recorder = SnapshotRecorder(profile: .builtInDefault)
    /// ```
    /// - Parameter profile: the profile whose filter selects the requests recorded.
    public init(profile: Profile) {
        self.profile = profile
    }

    /// The snapshot's JSON: `name`, `validator` and `requests`, or the existing snapshot's
    /// top-level keys with `requests` recorded again.
    ///
    /// ```swift
    /// let old = try JSONDocument.load(path: "Snapshots/checkout.json")
    /// let snapshot = try recorder.snapshot(from: requests, name: "checkout", existing: old)
    /// ```
    /// Re-recording pairs the existing entries with the captured requests as validation does;
    /// a paired entry keeps every `$regex`, `$type`, `$any`, `$absent`, `$literal` and literal
    /// that still accepts its request, and its `description`; the rest is recorded anew. Requests
    /// that pair with no entry are added, entries nothing pairs with are dropped. A Szimpla file
    /// becomes a tracksnap snapshot.
    /// - Parameters:
    ///   - requests: everything captured, in capture order, before filtering.
    ///   - name: the snapshot's `name` when there is no existing one.
    ///   - existing: the snapshot recorded before, if any.
    /// - Throws: `InputError` when the existing snapshot is not a valid snapshot.
    public func snapshot(from requests: [CapturedRequest], name: String, existing: JSONDocument? = nil) throws(InputError) -> JSONValue {
        let selected = requests.filter { profile.filter.accepts($0) }
        let views = selected.map(\.validationView)
        var recorder = EntryRecorder(ignore: profile.ignore, redact: profile.redact)
        for (request, view) in zip(selected, views) { recorder.collectSecrets(of: request, view: view) }
        let full = zip(selected, views).map { recorder.entry(for: $0, view: $1) }
        let recordedHeaders = Set(profile.recordedHeaders.map { $0.lowercased() })
        let trimmed = full.map { entry -> JSONValue in
            guard var object = entry.objectValue else { return entry }
            let headers = object["headers"]?.objectValue?.filter { recordedHeaders.contains($0.key) } ?? [:]
            object["headers"] = headers.isEmpty ? nil : .object(headers)
            return .object(object)
        }

        guard let existing else {
            return ["name": .string(name), "validator": .string(profile.name), "requests": .array(trimmed)]
        }
        let old = try Snapshot.parse(document: existing)
        let aligner = Aligner(expected: old.requests, actual: views, ignore: profile.ignore, strictObjects: old.strict ?? profile.strict)
        let alignment = aligner.align(order: old.order ?? profile.order)
        var pairedEntry: [Int: Int] = [:]
        for (e, a) in alignment.pairs + alignment.outOfOrder + alignment.duplicates { pairedEntry[a] = e }
        let keeper = PatternKeeper(ignore: profile.ignore)
        let entries: [JSONValue] = views.indices.map { a in
            guard let e = pairedEntry[a] else { return trimmed[a] }
            let merged = keeper.merge(old.requests[e].matcher, full: full[a], trimmed: trimmed[a], actual: views[a]) ?? trimmed[a]
            guard var object = merged.objectValue else { return merged }
            object["description"] = Self.rawEntry(old.requests[e].path, in: existing)?["description"]
            return .object(object)
        }
        var top = old.format == .tracksnap ? (existing.value.objectValue ?? [:]) : ["name": .string(name)]
        top["validator"] = .string(profile.name)
        top["requests"] = .array(entries)
        return .object(top)
    }

    /// Writes a snapshot whole or not at all: sorted keys, two-space indentation, a matcher on its
    /// key's line (`"ts": { "$regex": "[0-9]{13}" }`), LF line ends and a final newline, into a
    /// temporary file beside the target that is then renamed over it.
    ///
    /// ```swift
    /// try recorder.write(snapshot, to: "Snapshots/checkout.json")
    /// ```
    /// - Parameters:
    ///   - snapshot: the JSON from `snapshot(from:name:existing:)`.
    ///   - path: the file; missing directories above it are created.
    /// - Throws: `InputError` naming the file when it cannot be written.
    public func write(_ snapshot: JSONValue, to path: String) throws(InputError) {
        try AtomicFile.write(SnapshotFormatter.text(snapshot), to: path)
    }

    /// The entry as the file writes it, for what matchers do not keep (its `description`).
    private static func rawEntry(_ pointer: String, in document: JSONDocument) -> JSONValue? {
        JSONPointer.tokens(pointer).reduce(Optional(document.value)) { value, token in
            guard let value else { return nil }
            if let index = Int(token), let items = value.arrayValue { return index < items.count ? items[index] : nil }
            return value[token]
        }
    }
}
