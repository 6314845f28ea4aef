import TracksnapDecoders
import TracksnapJSON
public import TracksnapSnapshot
import TracksnapTraffic

/// The built-in validator: filter, decode, align, compare, explain.
///
/// A snapshot without `events` is checked at the HTTP level only. One with `events` has the
/// selected traffic decoded by the profile's decoders: events are compared with `events`, and
/// `requests` entries with every selected request, but only requests no decoder claimed count
/// as unexpected, so a batch is judged by its events. Traffic a decoder recognised but could not
/// decode is a `decode_error`.
public struct SnapshotValidator: Validator {
    public init() {}

    public func validate(_ snapshot: Snapshot, selection: Selection, profile: Profile) -> SnapshotResult {
        let requests = selection.requests
        let traffic = Traffic(snapshot: snapshot, selection: selection)
        var run = Run(snapshot: snapshot, profile: profile)
        // A request the filter cannot decide on fails the run rather than vanishing from it.
        var undecided = selection.undecided.map { item in
            Finding(
                code: .patternMismatch, path: "", message: selection.message(item),
                request: RequestReference(
                    id: requests[item.index].id, index: item.index, method: requests[item.index].method,
                    url: requests[item.index].urlWithoutQuery))
        }
        if let message = selection.untriedMessage {
            undecided.append(Finding(code: .patternMismatch, path: "", message: message))
        }
        run.decodeErrors = traffic.decodeErrors
        run.check(snapshot.requests, against: traffic.requests, collection: "/requests")
        if snapshot.checksEvents { run.check(snapshot.events, against: traffic.events, collection: "/events") }
        let result = SnapshotResult(
            file: snapshot.file, name: snapshot.name, profile: profile.name, entries: run.entries,
            findings: undecided + run.findings + run.decodeErrors + run.unexpectedFindings,
            selected: selection.selected.count, captured: requests.count,
            events: snapshot.checksEvents ? traffic.events.count : nil)
        // Secrets are looked for only when there is something to report: a passing run shows no values.
        guard !result.findings.isEmpty else { return result }
        // The selected requests' views, computed above, come first in `traffic.requests`, in order.
        // And what the profile's `redact` names: hidden in reports as in snapshots.
        let secrets = zip(selection.selected, traffic.requests).reduce(into: Set<String>()) { found, pair in
            found.formUnion(requests[pair.0].carriedSecrets(view: pair.1.view))
            found.formUnion(profile.redact.strings(in: pair.1.view))
        }
        return Redactor(secrets: secrets).redact(result)
    }

    /// Whether every entry the snapshot expects is paired with a captured request or event: the
    /// alignment alone, without the comparator's explanations or the secret search, which a wait
    /// asks on every arrival.
    package func hasEverythingExpected(_ snapshot: Snapshot, selection: Selection, profile: Profile) -> Bool {
        let traffic = Traffic(snapshot: snapshot, selection: selection)
        let strict = snapshot.strict ?? profile.strict
        let order = snapshot.order ?? profile.order
        func complete(_ expected: [ExpectedEntry], _ captured: [Captured]) -> Bool {
            expected.isEmpty
                || Aligner(
                    expected: expected, actual: captured.map(\.view), ignore: profile.ignore, strictObjects: strict
                )
                .align(order: order).missing.isEmpty
        }
        return complete(snapshot.requests, traffic.requests)
            && (!snapshot.checksEvents || complete(snapshot.events, traffic.events))
    }
}

/// The selected requests and their decoded events as alignment sees them, and the requests a
/// decoder claimed and could not read. A snapshot without `events` is checked at the HTTP level:
/// what the decoders made of its requests is left unread.
private struct Traffic {
    var requests: [Captured] = []
    var events: [Captured] = []
    var decodeErrors: [Finding] = []

    init(snapshot: Snapshot, selection: Selection) {
        let decodesEvents = snapshot.checksEvents
        for (i, decoded) in zip(selection.selected, selection.decoded) {
            let request = selection.requests[i]
            let reference = RequestReference(
                id: request.id, index: i, method: request.method, url: request.urlWithoutQuery)
            let decoded = decodesEvents ? decoded : .unclaimed
            requests.append(
                Captured(
                    view: request.validationView, request: reference, reportsUnexpected: decoded == .unclaimed,
                    description: "request #\(i + 1) \(request.method) \(reference.url)"))
            switch decoded {
            case .events(let decodedEvents):
                events += decodedEvents.map { event in
                    Captured(
                        view: event.validationView, request: reference.event(event.index), reportsUnexpected: true,
                        description:
                            "\(event.vendor) \(event.type) \(event.name.map { "\"\($0)\"" } ?? "") (request #\(i + 1), event \(event.index + 1))"
                    )
                }
            case .failed(let error):
                decodeErrors.append(
                    Finding(
                        code: .decodeError, path: "/events", location: snapshot.locations["/events"],
                        message: "request #\(i + 1) \(request.method) \(reference.url): \(error.description)",
                        request: reference))
            case .unclaimed:
                break
            }
        }
    }
}

/// A captured request or decoded event, as alignment and reports see it.
private struct Captured {
    var view: JSONValue
    var request: RequestReference
    /// False for a request a decoder turned into events: its events speak for it.
    var reportsUnexpected: Bool
    /// How a finding about unexpected traffic names it.
    var description: String
}

/// One validation in progress: collects entry results and findings.
private struct Run {
    let snapshot: Snapshot
    let profile: Profile
    var entries: [EntryResult] = []
    var findings: [Finding] = []
    var unexpectedFindings: [Finding] = []
    var decodeErrors: [Finding] = []

    init(snapshot: Snapshot, profile: Profile) {
        self.snapshot = snapshot
        self.profile = profile
    }

    mutating func check(_ expected: [ExpectedEntry], against captured: [Captured], collection: String) {
        guard !expected.isEmpty || captured.contains(where: \.reportsUnexpected) else { return }
        let views = captured.map(\.view)
        let references = captured.map(\.request)
        let strict = snapshot.strict ?? profile.strict
        let aligner = Aligner(expected: expected, actual: views, ignore: profile.ignore, strictObjects: strict)
        let alignment = aligner.align(order: snapshot.order ?? profile.order)
        var entryFindings = [[Finding]](repeating: [], count: expected.count)
        var pairedWith = [Int?](repeating: nil, count: expected.count)

        for (e, a) in alignment.pairs {
            var comparator = Comparator(
                ignore: profile.ignore, strictObjects: strict, explain: true, entry: expected[e].path)
            comparator.compareEntry(expected[e].matcher, views[a])
            entryFindings[e] = comparator.findings.map { finish($0, request: references[a]) }
            pairedWith[e] = a
        }
        for (e, a) in alignment.outOfOrder {
            pairedWith[e] = a
            entryFindings[e].append(
                finish(
                    Finding(
                        code: .orderMismatch, path: expected[e].path, entry: expected[e].path,
                        message:
                            "captured as \(references[a].event.map { "event \($0 + 1) of " } ?? "")request #\(references[a].index + 1), out of the expected order (where the order is not guaranteed, the snapshot can say \"order\": \"any\")"
                    ),
                    request: references[a]))
        }
        var extraCopies: [Int: [Int]] = [:]
        for (e, a) in alignment.duplicates where captured[a].reportsUnexpected { extraCopies[e, default: []].append(a) }
        if (snapshot.unexpected ?? profile.unexpected) == .fail {
            for (e, copies) in extraCopies.sorted(by: { $0.key < $1.key }) {
                let times = copies.count + 1
                entryFindings[e].append(
                    finish(
                        Finding(
                            code: .countMismatch, path: expected[e].path, entry: expected[e].path,
                            expected: .number(1), actual: .number(times),
                            message:
                                "captured \(times) times, expected once (again as request \(copies.map { "#\(references[$0].index + 1)" }.joined(separator: ", ")))"
                        ), request: references[copies[0]]))
            }
            for a in alignment.unexpected where captured[a].reportsUnexpected {
                unexpectedFindings.append(
                    finish(
                        Finding(
                            code: .unexpectedEvent, path: collection, actual: Self.shortView(views[a]),
                            message: "\(captured[a].description) matches no expected entry"), request: references[a]))
            }
        }
        for e in alignment.missing {
            entryFindings[e].append(
                finish(
                    Finding(
                        code: .missingEvent, path: expected[e].path, entry: expected[e].path,
                        expected: expected[e].matcher.json,
                        message: "\(expected[e].summary) was not captured"), request: nil))
        }
        for (e, entry) in expected.enumerated() {
            let status: EntryResult.Status =
                pairedWith[e] == nil ? .missing : (entryFindings[e].isEmpty ? .matched : .mismatched)
            entries.append(
                EntryResult(
                    path: entry.path, location: location(entry.path), summary: entry.summary, status: status,
                    request: pairedWith[e].map { references[$0] }))
            findings += entryFindings[e]
        }
    }

    /// Adds location, severity and request.
    private func finish(_ finding: Finding, request: RequestReference?) -> Finding {
        var finding = finding
        finding.location = location(finding.path)
        finding.severity = profile.severities[finding.code] ?? .error
        finding.request = request
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
