import TracksnapCore

/// The built-in validator: filter, align, compare, explain.
public struct SnapshotValidator: Validator {
    public init() {}

    public func validate(_ snapshot: Snapshot, requests: [CapturedRequest], profile: Profile) -> SnapshotResult {
        let selected = requests.indices.filter { profile.filter.accepts(requests[$0]) }
        let references = selected.map { i in
            RequestReference(id: requests[i].id, index: i, method: requests[i].method, url: requests[i].urlWithoutQuery)
        }
        let views = selected.map { requests[$0].validationView }
        var run = Run(snapshot: snapshot, profile: profile)
        run.check(snapshot.requests, against: views, references: references, collection: "/requests")
        // Events come from decoders; until a profile names one, no captured value is an event.
        run.check(snapshot.events, against: [], references: [], collection: "/events")
        return SnapshotResult(
            file: snapshot.file, name: snapshot.name, profile: profile.name, entries: run.entries,
            findings: run.findings + run.unexpectedFindings, selected: selected.count, captured: requests.count)
    }
}

/// One validation in progress: collects entry results and findings.
private struct Run {
    let snapshot: Snapshot
    let profile: Profile
    var entries: [EntryResult] = []
    var findings: [Finding] = []
    var unexpectedFindings: [Finding] = []

    init(snapshot: Snapshot, profile: Profile) {
        self.snapshot = snapshot
        self.profile = profile
    }

    mutating func check(_ expected: [ExpectedEntry], against views: [JSONValue], references: [RequestReference], collection: String) {
        guard !expected.isEmpty || !views.isEmpty else { return }
        let strict = snapshot.strict ?? profile.strict
        let aligner = Aligner(expected: expected, actual: views, ignore: profile.ignore, strictObjects: strict)
        let alignment = aligner.align(order: snapshot.order ?? profile.order)
        var entryFindings = [[Finding]](repeating: [], count: expected.count)
        var pairedWith = [Int?](repeating: nil, count: expected.count)

        for (e, a) in alignment.pairs {
            var comparator = Comparator(ignore: profile.ignore, strictObjects: strict, explain: true, entry: expected[e].path)
            comparator.compareEntry(expected[e].matcher, views[a])
            entryFindings[e] = comparator.findings.map { redact(finish($0, request: references[a])) }
            pairedWith[e] = a
        }
        for (e, a) in alignment.outOfOrder {
            pairedWith[e] = a
            entryFindings[e].append(finish(Finding(
                code: .orderMismatch, path: expected[e].path, entry: expected[e].path,
                message: "captured as request #\(references[a].index + 1), out of the expected order"), request: references[a]))
        }
        var extraCopies: [Int: [Int]] = [:]
        for (e, a) in alignment.duplicates { extraCopies[e, default: []].append(a) }
        if (snapshot.unexpected ?? profile.unexpected) == .fail {
            for (e, copies) in extraCopies.sorted(by: { $0.key < $1.key }) {
                let times = copies.count + 1
                entryFindings[e].append(finish(Finding(
                    code: .countMismatch, path: expected[e].path, entry: expected[e].path,
                    expected: .number(1), actual: .number(times),
                    message: "captured \(times) times, expected once (again as request \(copies.map { "#\(references[$0].index + 1)" }.joined(separator: ", ")))"), request: references[copies[0]]))
            }
            for a in alignment.unexpected {
                unexpectedFindings.append(finish(Finding(
                    code: .unexpectedEvent, path: collection, actual: Secrets.redacted(Self.shortView(views[a])),
                    message: "request #\(references[a].index + 1) \(references[a].method) \(references[a].url) matches no expected entry"), request: references[a]))
            }
        }
        for e in alignment.missing {
            entryFindings[e].append(finish(Finding(
                code: .missingEvent, path: expected[e].path, entry: expected[e].path, expected: expected[e].matcher.json,
                message: "\(expected[e].summary) was not captured"), request: nil))
        }
        for (e, entry) in expected.enumerated() {
            let status: EntryResult.Status = pairedWith[e] == nil ? .missing : (entryFindings[e].isEmpty ? .matched : .mismatched)
            entries.append(EntryResult(
                path: entry.path, location: location(entry.path), summary: entry.summary, status: status,
                request: pairedWith[e].map { references[$0] }))
            findings += entryFindings[e]
        }
    }

    /// Adds location, severity and request.
    private func finish(_ finding: Finding, request: RequestReference?) -> Finding {
        var finding = finding
        finding.location = location(finding.path)
        finding.severity = profile.severities[finding.code].map { $0 == .warning ? .warning : .error } ?? .error
        finding.request = request
        return finding
    }

    /// A captured secret never reaches a report, even when it differs from the snapshot.
    private func redact(_ finding: Finding) -> Finding {
        var finding = finding
        if JSONPointer.tokens(finding.path).contains(where: Secrets.isSecret) {
            finding.actual = finding.actual.map { _ in Secrets.placeholder }
        } else {
            finding.actual = finding.actual.map(Secrets.redacted)
        }
        return finding
    }

    /// The location of a pointer, or of its nearest ancestor that has one (a Szimpla parameter
    /// taken from the URL stands where the URL does).
    private func location(_ pointer: String) -> SourceLocation? {
        var tokens = JSONPointer.tokens(pointer)
        while true {
            let current = tokens.reduce("") { JSONPointer.appending($0, $1) }
            if let found = snapshot.locations[current] { return found }
            if tokens.isEmpty { return nil }
            tokens.removeLast()
        }
    }

    /// What a report shows of unexpected traffic: everything but the headers.
    private static func shortView(_ view: JSONValue) -> JSONValue {
        guard var object = view.objectValue else { return view }
        object["headers"] = nil
        if object["parameters"] == .object([:]) { object["parameters"] = nil }
        return .object(object)
    }
}
