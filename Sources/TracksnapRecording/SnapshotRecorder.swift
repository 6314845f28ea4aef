import Foundation
import TracksnapDecoders
package import TracksnapJSON
package import TracksnapSnapshot
package import TracksnapTraffic
package import TracksnapValidation

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
/// never as values. Values of a volatile shape (UUIDs, timestamps, epoch times, random ids and
/// tokens, the capture server's origin) are written as matchers describing the shape, so that
/// the snapshot passes on the next run (`"record": {"generalize": false}` and
/// `"record": {"literal": […]}` in the profile say otherwise); recorded from several runs
/// (`snapshot(fromRuns:name:existing:runNames:)`), what differs between them becomes a matcher
/// too. Given the existing snapshot, every matcher that still accepts the new traffic is kept
/// (see `snapshot(from:name:existing:)`).
package struct SnapshotRecorder: Sendable {
    /// The filter, ignore and redact rules, and the headers to keep.
    package var profile: Profile
    /// Where the profile's validator and plans are found, when a mode records only what fails:
    /// its extensions, and the root the plans must stay under.
    package var workspace: Workspace

    /// A recorder for one profile.
    ///
    /// ```swift
    /// let recorder = SnapshotRecorder(profile: .builtInDefault)
    /// ```
    /// - Parameters:
    ///   - profile: the profile whose filter selects the requests recorded.
    ///   - extensions: where the profile's validator is found.
    package init(profile: Profile, extensions: Extensions = .registered) {
        self.init(profile: profile, workspace: Workspace(extensions: extensions))
    }

    /// A recorder for one profile, whose check (mode `failed`) reads the profile's validator and
    /// plans through `workspace`, as the recorder's profile was loaded.
    package init(profile: Profile, workspace: Workspace) {
        self.profile = profile
        self.workspace = workspace
    }

    /// A recorder for a snapshot, under the profile every entry point records it with: the one
    /// named, else the existing snapshot's `validator`, else `default`.
    ///
    /// ```swift
    /// let recorder = try SnapshotRecorder(profile: nil, existing: try? Snapshot.load(path: path), workspace: workspace)
    /// ```
    /// - Parameters:
    ///   - reference: the profile (name or path) the caller names, if any.
    ///   - existing: the snapshot recorded before, if any.
    ///   - workspace: where profile names are looked up, and its extensions.
    /// - Throws: `InputError` when the profile cannot be loaded.
    package init(profile reference: String?, existing: Snapshot?, workspace: Workspace) throws(InputError) {
        self.init(
            profile: try Profile.load(reference ?? existing?.validator ?? "default", workspace: workspace),
            workspace: workspace)
    }

    /// What the snapshot's `validator` says: the profile's name when the snapshot's workspace
    /// finds this profile by it (a built-in, or `NAME.json` in its `Validators`); else the path
    /// of the file it was read from (under the root, relative to it), so that validating the
    /// snapshot reads the profile it was recorded with.
    private var validatorReference: String {
        guard let file = profile.file, !profile.name.contains(","), FileManager.default.fileExists(atPath: file),
            Profile.builtIn(profile.name)?.file != file
        else { return profile.name }
        func real(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let byName = (workspace.validators as NSString).appendingPathComponent(profile.name + ".json")
        return real(file) == real(byName) ? profile.name : workspace.display(file)
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
    /// nothing pairs with are dropped; under `"order": "any"` paired entries keep their old
    /// order. A Szimpla file becomes a tracksnap snapshot.
    /// - Parameters:
    ///   - requests: everything captured, in capture order, before filtering.
    ///   - name: the snapshot's `name` when there is no existing one.
    ///   - existing: the snapshot recorded before, if any.
    /// - Throws: `InputError` when the existing snapshot is not a valid snapshot, or when a
    ///   decoder recognises a request it cannot decode (with the request and the reason).
    package func snapshot(from requests: [CapturedRequest], name: String, existing: JSONDocument? = nil)
        throws(InputError) -> JSONValue
    {
        try recording(from: [requests], name: name, existing: existing, file: existing?.file ?? name).snapshot
    }

    /// The snapshot learnt from several runs of the same flow: what differs between them
    /// becomes the narrowest matcher accepting every run, what agrees stays literal.
    ///
    /// ```swift
    /// let snapshot = try recorder.snapshot(fromRuns: [run1, run2], name: "checkout", runNames: ["run1.ndjson", "run2.ndjson"])
    /// ```
    /// Each run's entries are paired with the first run's by the alignment validation uses. Values
    /// equal in every run stay literal, except those made from the clock or a fresh random draw
    /// (UUIDs, timestamps, epoch times, client ids, a local server's origin), which are always
    /// written as matchers; values that differ become their common shape, else the same text
    /// with `[0-9]+` for differing digits, else their `$type`. A key some runs leave out is not
    /// written (objects match as a subset); arrays of different lengths become `{"$type": "array"}`.
    /// - Parameters:
    ///   - runs: each run's captured requests, in capture order, the first run first.
    ///   - name: the snapshot's `name` when there is no existing one.
    ///   - existing: the snapshot recorded before, if any.
    ///   - runNames: how errors name each run (its capture file); `run 1`, `run 2`… by default.
    /// - Throws: `InputError` as `snapshot(from:name:existing:)` does, and when a run is not the
    ///   same flow as the first: a different number of entries, or an entry with no counterpart
    ///   (another event name, method or URL), naming the first difference.
    package func snapshot(
        fromRuns runs: [[CapturedRequest]], name: String, existing: JSONDocument? = nil, runNames: [String] = []
    ) throws(InputError) -> JSONValue {
        try recording(from: runs, name: name, existing: existing, file: existing?.file ?? name, runNames: runNames)
            .snapshot
    }

    /// A recorded snapshot and what was written as matchers in it.
    package struct Recording {
        package var snapshot: JSONValue
        package var generalized: [Generalization]
    }

    /// One run's traffic, ready to record: the selected requests no decoder claimed and the
    /// decoded events, each with its validation view and its entry as `EntryRecorder` builds it.
    struct RunEntries {
        var requests: [RecordedItem] = []
        var events: [RecordedItem] = []
    }

    /// A captured request or event on its way into a snapshot.
    struct RecordedItem {
        var view: JSONValue
        /// The entry as `EntryRecorder` builds it: secrets hidden, ignored and environment fields left out.
        var full: JSONValue
        /// The environment fields left out of `full` (the profile's `environment`), as entry-relative tokens.
        var environment: [[String]]
        /// How errors name it: `request #3 POST https://…`, `event #2 "Order Completed"`.
        var label: String
        var run: Generalizer.Run
        /// The index of the captured request it came from: events of one request share it.
        var request: Int
    }

    /// The snapshot and what was generalised in it, for `snapshot(fromRuns:…)` and `record(runs:…)`.
    package func recording(
        from runs: [[CapturedRequest]], name: String, existing: JSONDocument?, file: String, runNames: [String] = []
    ) throws(InputError) -> Recording {
        let runs = runs.isEmpty ? [[]] : runs
        let old = try existing.map { document throws(InputError) in try Snapshot.parse(document: document) }
        let names = runs.indices.map { $0 < runNames.count ? runNames[$0] : "run \($0 + 1)" }
        var recorder = EntryRecorder(ignore: profile.ignore, redact: profile.redact, environment: profile.environment)
        let decodesEvents = profile.recordsEvents || old?.checksEvents == true
        var selections: [Selection] = []
        for (r, requests) in runs.enumerated() {
            let selection = profile.select(requests, decodingEvents: decodesEvents)
            if let first = selection.undecided.first {
                throw InputError(
                    file: file, message: "cannot record from \(names[r]): " + selection.message(first))
            }
            selections.append(selection)
        }
        for (requests, selection) in zip(runs, selections) {
            for i in selection.selected { recorder.collectSecrets(of: requests[i], view: requests[i].validationView) }
        }
        recorder.personalData = profile.personalDataToHide(
            zip(runs, selections).flatMap { requests, selection in
                zip(selection.selected, selection.decoded).map { i, decoded in
                    if case .events(let events) = decoded { return (requests[i], events) }
                    return (requests[i], [])
                }
            }, snapshot: old)

        var collected: [RunEntries] = []
        for (r, requests) in runs.enumerated() {
            var run = RunEntries()
            for (i, decoded) in zip(selections[r].selected, selections[r].decoded) {
                let request = requests[i]
                switch decoded {
                case .events(let decoded):
                    for event in decoded {
                        let view = event.validationView
                        let full = recorder.eventEntry(view: view)
                        run.events.append(
                            RecordedItem(
                                view: view, full: full, environment: recorder.leftOut,
                                label: "event #\(run.events.count + 1) \"\(event.name ?? event.type)\"",
                                run: Generalizer.Run(request: request), request: i))
                    }
                case .unclaimed:
                    let view = request.validationView
                    let full = recorder.entry(for: request, view: view)
                    run.requests.append(
                        RecordedItem(
                            view: view, full: full, environment: recorder.leftOut,
                            label: "request #\(i + 1) \(request.method) \(request.urlWithoutQuery)",
                            run: Generalizer.Run(request: request), request: i))
                case .failed(let error):
                    throw InputError(
                        file: r == 0 ? file : names[r],
                        message:
                            "cannot record events: request #\(i + 1) \(request.method) \(request.urlWithoutQuery) (id \(request.id)): \(error.description)"
                    )
                }
            }
            collected.append(run)
        }

        var generalized: [Generalization] = []
        var orderDiffers = false
        let requestEntries = try learn(
            collected.map(\.requests), kind: .request, names: names, old: old?.requests ?? [], existing: existing,
            oldSnapshot: old, generalized: &generalized, orderDiffers: &orderDiffers)
        let eventEntries =
            decodesEvents
            ? try learn(
                collected.map(\.events), kind: .event, names: names, old: old?.events ?? [], existing: existing,
                oldSnapshot: old, generalized: &generalized, orderDiffers: &orderDiffers)
            : nil

        var top: [String: JSONValue]
        if let old, old.format == .tracksnap, let existing {
            top = existing.value.objectValue ?? [:]
        } else {
            top = ["name": .string(name)]
        }
        top["validator"] = .string(validatorReference)
        let order = recordedOrder(collected, kept: old?.format == .tracksnap ? old?.order : nil, differs: orderDiffers)
        top["order"] = .string(order.value.rawValue)
        if let reason = order.reason { generalized.insert(Generalization(path: "/order", reason: reason), at: 0) }
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
        return Recording(snapshot: .object(top), generalized: generalized)
    }

    /// The `order` a recording writes, and why when it is `any` where the snapshot did not say so.
    ///
    /// Delivery decides what one run can tell: events sent in one request keep their order;
    /// separate requests keep theirs only when the profile's SDK sends them one after another
    /// (`"delivery": "serial"`). Runs that disagree make it `any`, whatever the snapshot said;
    /// otherwise an order the existing snapshot states is kept.
    private func recordedOrder(_ runs: [RunEntries], kept: Order?, differs: Bool) -> (value: Order, reason: String?) {
        if differs { return (.any, kept == .any ? nil : "the runs sent it in different orders") }
        if let kept { return (kept, nil) }
        let separate = runs.contains { run in Set((run.requests + run.events).map(\.request)).count > 1 }
        if separate && profile.delivery == .concurrent {
            return (.any, "sent in separate requests, which may arrive in any order")
        }
        return (.strict, nil)
    }

    /// The entries of one kind: each run paired with the first, generalised, trimmed as they are
    /// written, and merged with what the existing snapshot had. `orderDiffers` is set when a run
    /// pairs with the first only in another order.
    private func learn(
        _ runs: [[RecordedItem]], kind: ExpectedEntry.Kind, names: [String], old: [ExpectedEntry],
        existing: JSONDocument?, oldSnapshot: Snapshot?,
        generalized: inout [Generalization], orderDiffers: inout Bool
    ) throws(InputError) -> [JSONValue] {
        let first = runs[0]
        let generalizer = Generalizer(profile: profile)
        var pairings: [[Int]] = []
        if runs.count > 1 {
            // Each run is paired with the first as recorded from the first alone: its volatile
            // values already patterns (whatever the profile says), so that they do not stand in the way.
            let pairing = Generalizer(detectsShapes: true)
            let single = first.map { item in
                var found: [Generalizer.Found] = []
                return trim(
                    EntryRecorder.fillingSecretHoles(
                        pairing.entry([item.full], kind: kind, runs: [item.run], found: &found)), kind: kind)
            }
            for r in runs.indices.dropFirst() {
                let pairing = try RunPairing.pair(
                    runs[r], with: single, firstItems: first, kind: kind, ignore: profile.ignore,
                    names: (names[0], names[r]))
                orderDiffers = orderDiffers || !pairing.inOrder
                pairings.append(pairing.counterparts)
            }
        }
        var found: [[Generalizer.Found]] = []
        let full = first.indices.map { e in
            let items = [first[e]] + pairings.enumerated().map { runs[$0.offset + 1][$0.element[e]] }
            var entryFound: [Generalizer.Found] = []
            let entry = EntryRecorder.fillingSecretHoles(
                generalizer.entry(items.map(\.full), kind: kind, runs: items.map(\.run), found: &entryFound))
            found.append(entryFound)
            return entry
        }
        let trimmed = full.map { trim($0, kind: kind) }
        let (entries, captured) = merge(
            old, views: first.map(\.view), full: full, trimmed: trimmed, existing: existing, oldSnapshot: oldSnapshot)
        let section = kind == .request ? "requests" : "events"
        for (position, (entry, index)) in zip(entries, captured).enumerated() {
            // Only what is written: trimmed headers and context, and patterns a person kept, are not news;
            // an environment field left out is, where its object is written.
            let written = found[index].filter { item in
                // A key not sent in every run is news where its object is written.
                guard item.reason != Generalizer.notInEveryRun else {
                    return entry.value(atTokens: item.tokens.dropLast())?.objectValue != nil
                }
                return entry.value(atTokens: item.tokens).map { $0 == full[index].value(atTokens: item.tokens) }
                    ?? false
            }
            let leftOut = first[index].environment.filter { tokens in
                entry.value(atTokens: tokens.dropLast())?.objectValue != nil
            }.map { Generalizer.Found(tokens: $0, reason: Generalizer.environment) }
            for item in Set(written + leftOut).sorted(by: { $0.tokens.lexicographicallyPrecedes($1.tokens) }) {
                let path = item.tokens.reduce("/\(section)/\(position)") { JSONPointer.appending($0, $1) }
                generalized.append(Generalization(path: path, reason: item.reason))
            }
        }
        return entries
    }

    /// An entry as written for a new snapshot: request headers only those the profile lists,
    /// event context only the fields it lists.
    private func trim(_ entry: JSONValue, kind: ExpectedEntry.Kind) -> JSONValue {
        if kind == .event { return EntryRecorder.trimmedEvent(entry, context: profile.recordedContext) }
        guard var object = entry.objectValue else { return entry }
        let recordedHeaders = Set(profile.recordedHeaders.map { $0.lowercased() })
        let headers = object["headers"]?.objectValue?.filter { recordedHeaders.contains($0.key) } ?? [:]
        object["headers"] = headers.isEmpty ? nil : .object(headers)
        return .object(object)
    }

    /// Pairs the existing entries with the captured values by the alignment validation uses,
    /// and keeps what still matches in each pair (`PatternKeeper`).
    ///
    /// - Returns: the entries as written, and the captured value each came from. Under `"order":
    ///   "any"` the entries that pair keep the existing snapshot's order, and a new one follows the
    ///   entry captured before it, so that a re-recording's diff shows only what changed; under
    ///   `strict`, capture order, which the snapshot checks.
    private func merge(
        _ old: [ExpectedEntry], views: [JSONValue], full: [JSONValue], trimmed: [JSONValue], existing: JSONDocument?,
        oldSnapshot: Snapshot?
    ) -> (entries: [JSONValue], captured: [Int]) {
        guard let existing, let oldSnapshot, !old.isEmpty else { return (trimmed, Array(trimmed.indices)) }
        let aligner = Aligner(
            expected: old, actual: views, ignore: profile.ignore, strictObjects: oldSnapshot.strict ?? profile.strict)
        let order = oldSnapshot.order ?? profile.order
        let alignment = aligner.align(order: order)
        var pairedEntry: [Int: Int] = [:]
        for (e, a) in alignment.pairs + alignment.outOfOrder + alignment.duplicates { pairedEntry[a] = e }
        let keeper = PatternKeeper(ignore: profile.ignore)
        var captured = Array(views.indices)
        if order == .any {
            // Each captured value sorts at the old entry it pairs with, or just after the one
            // paired before it in capture order; ties keep capture order.
            var key: [(entry: Int, new: Int, index: Int)] = []
            var previous = -1
            for a in views.indices {
                if let e = pairedEntry[a] { previous = e }
                key.append((previous, pairedEntry[a] == nil ? 1 : 0, a))
            }
            captured = key.sorted { ($0.entry, $0.new, $0.index) < ($1.entry, $1.new, $1.index) }.map(\.index)
        }
        let entries = captured.map { a in
            guard let e = pairedEntry[a] else { return trimmed[a] }
            let merged =
                keeper.merge(old[e].matcher, full: full[a], trimmed: trimmed[a], actual: views[a]) ?? trimmed[a]
            guard var object = merged.objectValue else { return merged }
            object["description"] = Self.rawEntry(old[e].path, in: existing)?["description"]
            return .object(object)
        }
        return (entries, captured)
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
    package func write(_ snapshot: JSONValue, to path: String) throws(InputError) {
        try AtomicFile.write(SnapshotFormatter.text(snapshot), to: path)
    }

    /// The entry as the file writes it, for what matchers do not keep (its `description`).
    private static func rawEntry(_ pointer: String, in document: JSONDocument) -> JSONValue? {
        document.value.value(atPointer: pointer)
    }
}
