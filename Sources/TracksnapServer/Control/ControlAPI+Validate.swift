import Foundation
import NIOCore
import NIOHTTP1
import TracksnapJSON
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

extension ControlAPI {
    /// The report formats `validate` answers in, and the content type of each.
    static let reportContentTypes: [String: String] = [
        "json": "application/json",
        "text": "text/plain; charset=utf-8",
        "junit": "application/xml; charset=utf-8",
        "github": "text/plain; charset=utf-8",
        "markdown": "text/markdown; charset=utf-8",
        "html": "text/html; charset=utf-8",
    ]
    /// Whether the validation passed, on every `validate` answer: a report in a format other
    /// than JSON says it only in its own words.
    static let passedHeader = "X-Tracksnap-Passed"

    /// `POST sessions/{id}/validate`: waits until every expected entry is matched or the
    /// session's traffic settles (`trafficWait`: unless `"settle": 0`), then validates it against
    /// a snapshot (a file under the root, or `snapshotContent` in the body) and the tracking
    /// plans `plan` names (files under the root; with no snapshot, the plans alone), and answers
    /// with the report in the format asked for.
    func validate(_ id: String, _ request: IncomingRequest) async throws(ControlError) -> ControlAnswer {
        let example =
            #"{"snapshot": "Snapshots/checkout.json", "validator": "default", "format": "json", "timeout": 10, "settle": 0.5}"#
        let body = try ControlBody(
            request.body.readableBytesView,
            fields: ["snapshot", "snapshotContent", "plan", "validator", "format", "timeout", "settle", "consent"],
            example: example)
        // One path, or a list of them.
        let plan = body.value("plan")
        let named = plan?.stringValue.map { [$0] } ?? plan?.arrayValue?.compactMap(\.stringValue)
        if let plan, named?.count != (plan.arrayValue?.count ?? 1) {
            throw .badRequest("plan must be a path under the root, or an array of them")
        }
        var plans: [Workspace.File] = []
        for path in named ?? [] { plans.append(try resolve(path, field: "plan")) }
        let snapshot = try snapshotSource(body)
        if snapshot == nil, plans.isEmpty {
            throw .badRequest(
                "snapshot (a path under the root), snapshotContent (the snapshot's JSON) or plan (tracking plan files under the root) is required: \(example)"
            )
        }
        let profile = try body.string("validator")
        let name = try body.word("format", of: ReportFormat.all.map(\.name)) ?? "json"
        let format = ReportFormat.named(name) ?? .json
        let timeout = try body.seconds("timeout", maximum: Self.maximumTimeout)
        let settle = try body.seconds("settle", maximum: Self.maximumTimeout)
        let consent = try Self.consent(body.value("consent"))
        // Read once; an error is answered after the session is found, as when there is no wait.
        let prepared = Result { () throws(InputError) -> PreparedCheck in
            switch snapshot {
            case .file(let file):
                try PreparedCheck(snapshotAt: file, profile: profile, planFiles: plans, workspace: workspace)
            case .content(let content, _):
                try PreparedCheck(
                    content, file: SnapshotSource.contentName, profile: profile, planFiles: plans, workspace: workspace)
            case nil:
                try PreparedCheck(profileAlone: profile ?? "default", planFiles: plans, workspace: workspace)
            }
        }.map { $0.declaring(consent: consent).observingDecodes(in: store.decodes()) }
        let requests: [CapturedRequest]
        var reason: RequestWaitList.Reason?
        if let wait = Self.trafficWait(timeout: timeout, settle: settle) {
            let outcome = await store.wait(inSession: id, settle: wait.settle, timeout: wait.timeout) { requests in
                // Every expected entry paired with a request: nothing more is awaited. A
                // snapshot that cannot be read ends the wait at once; the answer says why.
                (try? prepared.get())?.hasEverythingExpected(requests) ?? true
            }
            guard let outcome else { throw noSession(id) }
            requests = outcome.requests
            reason = outcome.reason
        } else {
            guard let held = store.requests(inSession: id) else { throw noSession(id) }
            requests = held
        }
        var result: SnapshotResult
        switch prepared {
        case .success(let check): result = check.validate(requests)
        case .failure(let error): throw .badRequest(error, shownBy: workspace)
        }
        // The snapshot is named as the call named it; files found on the way (a profile, a plan
        // folder's files) relative to the root, as `record` answers.
        for index in result.findings.indices {
            result.findings[index].file = result.findings[index].file.map(workspace.display)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: Self.reportContentTypes[format.name] ?? "text/plain; charset=utf-8")
        headers.add(name: Self.passedHeader, value: result.passed ? "true" : "false")
        if let reason { headers.add(name: Self.waitHeader, value: reason.rawValue) }
        let response = Response(status: .ok, headers: headers, body: ByteBuffer(string: format.render([result])))
        return .response(Self.attributed(response, store.unattributed(sinceSessionStarted: id) ?? 0))
    }

    /// Where a call's snapshot is: a file under the root, or its content in the body.
    enum SnapshotSource: Sendable {
        /// Resolved once, under the root, keeping the name the call gave.
        case file(Workspace.File)
        /// The snapshot and its document, as read from `snapshotContent`.
        case content(Snapshot, JSONDocument)

        /// How errors and reports name a snapshot given in the body.
        static let contentName = "snapshotContent"
    }

    /// The call's `snapshot` path, resolved under the root, or its `snapshotContent`: the
    /// snapshot file's JSON (an object, or a Szimpla file's array), read as if it were a file
    /// pretty-printed with sorted keys, so that findings' lines and columns point into that text;
    /// or the file's text as a string (what the inspector sends of a pasted snapshot), read as
    /// it is, so that errors and findings point into the text as written.
    /// Nil when the call gives neither.
    func snapshotSource(_ body: ControlBody) throws(ControlError) -> SnapshotSource? {
        let path = try body.string("snapshot")
        let content = body.value("snapshotContent")
        if path != nil, content != nil {
            throw .badRequest("snapshot and snapshotContent name two snapshots; give one")
        }
        if let path { return .file(try resolve(path, field: "snapshot")) }
        guard let content else { return nil }
        let document: JSONDocument
        if let text = content.stringValue {
            // The file's text, as pasted: read as the CLI reads a file, so that a mistake is told
            // at its line and column in that text.
            do {
                document = try JSONDocument.parse(Array(text.utf8), file: SnapshotSource.contentName)
            } catch {
                throw .badRequest(error.description)
            }
        } else {
            guard content.objectValue != nil || content.arrayValue != nil else {
                throw ControlError.badRequest(
                    "snapshotContent must be a snapshot's JSON (an object such as {\"events\": [ … ]}) or its text, not \(content.typeName)"
                )
            }
            do {
                document = try JSONDocument.parse(
                    Array(content.serialized(pretty: true).utf8), file: SnapshotSource.contentName)
            } catch {
                throw .badRequest("snapshotContent: \(error.message)")
            }
        }
        do {
            return .content(try Snapshot.parse(document: document), document)
        } catch {
            throw .badRequest(error.description)
        }
    }

    /// A path a call names, resolved under the root once: what is opened, and the name the call gave.
    func resolve(_ path: String, field: String) throws(ControlError) -> Workspace.File {
        do {
            return try workspace.file(path, field: field)
        } catch {
            throw .badRequest(error.diagnostics.first?.message ?? error.description)
        }
    }

    /// The body's `consent`: `"denied"`, `"granted"`, `"ad_storage=denied,…"`, or an object of
    /// Consent Mode types and states; nil when absent.
    static func consent(_ value: JSONValue?) throws(ControlError) -> ConsentDeclaration? {
        guard let value, value != .null else { return nil }
        let text: String?
        if let object = value.objectValue {
            let pairs = object.sorted { $0.key < $1.key }.map { type, state in
                state.stringValue.map { "\(type)=\($0)" }
            }
            text = pairs.contains(nil) || pairs.isEmpty ? nil : pairs.compactMap { $0 }.joined(separator: ",")
        } else {
            text = value.stringValue
        }
        do throws(ConsentDeclarationError) {
            guard let text else { throw ConsentDeclarationError.shape }
            return try ConsentDeclaration(parsing: text)
        } catch {
            throw ControlError.badRequest(
                "consent must be \"denied\", \"granted\" or an object of Consent Mode types and states ({\"ad_storage\": \"denied\", \"analytics_storage\": \"granted\"}): \(error)"
            )
        }
    }
}
