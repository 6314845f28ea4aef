import Foundation
import TracksnapCore
import TracksnapDecoders

/// Writes a snapshot from captured traffic, under a profile: requests, or decoded events.
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

    /// The snapshot's JSON: `name`, `validator` and `requests` (and `events` through a profile
    /// with `decoders`), or the existing snapshot's top-level keys with those recorded again.
    ///
    /// ```swift
    /// let old = try JSONDocument.load(path: "Snapshots/checkout.json")
    /// let snapshot = try recorder.snapshot(from: requests, name: "checkout", existing: old)
    /// ```
    /// Through a profile with `decoders` (or over an existing snapshot that lists `events`), the
    /// selected traffic is decoded: each event becomes an `events` entry (`vendor`, `type`,
    /// `name`, `properties`, and the `context` fields the profile's `"record": {"context": […]}`
    /// lists), and `requests` lists only the selected requests no decoder claimed (none when
    /// every one was). Re-recording pairs the existing entries with the captured requests and
    /// events as validation does; a paired entry keeps every `$regex`, `$type`, `$any`,
    /// `$absent`, `$literal` and literal that still accepts its value, and its `description`;
    /// the rest is recorded anew. Captured values that pair with no entry are added, entries
    /// nothing pairs with are dropped. A Szimpla file becomes a tracksnap snapshot.
    /// - Parameters:
    ///   - requests: everything captured, in capture order, before filtering.
    ///   - name: the snapshot's `name` when there is no existing one.
    ///   - existing: the snapshot recorded before, if any.
    /// - Throws: `InputError` when the existing snapshot is not a valid snapshot, or when a
    ///   decoder recognises a request it cannot decode (with the request and the reason).
    public func snapshot(from requests: [CapturedRequest], name: String, existing: JSONDocument? = nil) throws(InputError) -> JSONValue {
        try snapshot(from: requests, name: name, existing: existing, file: existing?.file ?? name)
    }

    func snapshot(from requests: [CapturedRequest], name: String, existing: JSONDocument?, file: String) throws(InputError) -> JSONValue {
        let old = try existing.map { document throws(InputError) in try Snapshot.parse(document: document) }
        let selected = requests.indices.filter { profile.filter.accepts(requests[$0]) }
        var recorder = EntryRecorder(ignore: profile.ignore, redact: profile.redact)
        for i in selected { recorder.collectSecrets(of: requests[i], view: requests[i].validationView) }

        var unclaimed: [CapturedRequest] = []
        var events: [AnalyticsEvent] = []
        let decodesEvents = profile.recordsEvents || !(old?.events.isEmpty ?? true)
        let decoders = decodesEvents ? SnapshotValidator.decoders(named: profile.decoders) : []
        for i in selected {
            let request = requests[i]
            switch decoders.isEmpty ? .unclaimed : Decoders.decode(request, using: decoders) {
            case .events(let decoded): events += decoded
            case .unclaimed: unclaimed.append(request)
            case .failed(let error):
                throw InputError(
                    file: file,
                    message: "cannot record events: request #\(i + 1) \(request.method) \(request.urlWithoutQuery) (id \(request.id)): \(error.description)")
            }
        }

        let requestEntries = recordRequests(unclaimed, recorder: &recorder, old: old?.requests ?? [], existing: existing, oldSnapshot: old)
        let eventEntries = decodesEvents
            ? recordEvents(events, recorder: &recorder, old: old?.events ?? [], existing: existing, oldSnapshot: old) : nil

        var top: [String: JSONValue]
        if let old, old.format == .tracksnap, let existing {
            top = existing.value.objectValue ?? [:]
        } else {
            top = ["name": .string(name)]
        }
        top["validator"] = .string(profile.name)
        if let eventEntries {
            top["events"] = .array(eventEntries)
            if requestEntries.isEmpty {
                top.removeValue(forKey: "requests")
            } else {
                top["requests"] = .array(requestEntries)
            }
        } else {
            top["requests"] = .array(requestEntries)
        }
        return .object(top)
    }

    /// The `requests` entries: new ones as recorded, paired ones merged with what they had.
    private func recordRequests(
        _ selected: [CapturedRequest], recorder: inout EntryRecorder, old: [ExpectedEntry], existing: JSONDocument?, oldSnapshot: Snapshot?
    ) -> [JSONValue] {
        let views = selected.map(\.validationView)
        let full = zip(selected, views).map { recorder.entry(for: $0, view: $1) }
        let recordedHeaders = Set(profile.recordedHeaders.map { $0.lowercased() })
        let trimmed = full.map { entry -> JSONValue in
            guard var object = entry.objectValue else { return entry }
            let headers = object["headers"]?.objectValue?.filter { recordedHeaders.contains($0.key) } ?? [:]
            object["headers"] = headers.isEmpty ? nil : .object(headers)
            return .object(object)
        }
        return merge(old, views: views, full: full, trimmed: trimmed, existing: existing, oldSnapshot: oldSnapshot)
    }

    /// The `events` entries, as `recordRequests` does for requests.
    private func recordEvents(
        _ events: [AnalyticsEvent], recorder: inout EntryRecorder, old: [ExpectedEntry], existing: JSONDocument?, oldSnapshot: Snapshot?
    ) -> [JSONValue] {
        let views = events.map(\.validationView)
        let full = views.map { recorder.eventEntry(view: $0) }
        let trimmed = full.map { EntryRecorder.trimmedEvent($0, context: profile.recordedContext) }
        return merge(old, views: views, full: full, trimmed: trimmed, existing: existing, oldSnapshot: oldSnapshot)
    }

    /// Pairs the existing entries with the captured values by the alignment validation uses,
    /// and keeps what still matches in each pair (`PatternKeeper`).
    private func merge(
        _ old: [ExpectedEntry], views: [JSONValue], full: [JSONValue], trimmed: [JSONValue], existing: JSONDocument?, oldSnapshot: Snapshot?
    ) -> [JSONValue] {
        guard let existing, let oldSnapshot, !old.isEmpty else { return trimmed }
        let aligner = Aligner(expected: old, actual: views, ignore: profile.ignore, strictObjects: oldSnapshot.strict ?? profile.strict)
        let alignment = aligner.align(order: oldSnapshot.order ?? profile.order)
        var pairedEntry: [Int: Int] = [:]
        for (e, a) in alignment.pairs + alignment.outOfOrder + alignment.duplicates { pairedEntry[a] = e }
        let keeper = PatternKeeper(ignore: profile.ignore)
        return views.indices.map { a in
            guard let e = pairedEntry[a] else { return trimmed[a] }
            let merged = keeper.merge(old[e].matcher, full: full[a], trimmed: trimmed[a], actual: views[a]) ?? trimmed[a]
            guard var object = merged.objectValue else { return merged }
            object["description"] = Self.rawEntry(old[e].path, in: existing)?["description"]
            return .object(object)
        }
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
