import Foundation
import NIOCore
import NIOHTTP1
import TracksnapCore
import TracksnapReports
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

    /// `POST sessions/{id}/validate`: waits when asked to, then validates the session against
    /// a snapshot under the root and answers with the report in the format asked for.
    func validate(_ id: String, _ request: IncomingRequest) async -> Response {
        let example = #"{"snapshot": "Snapshots/checkout.json", "validator": "default", "format": "json", "timeout": 10, "settle": 0.5}"#
        let snapshot: String, profile: String?, format: ReportFormat, timeout: Double?, settle: Double?
        do throws(ControlBody.Problem) {
            let body = try ControlBody(
                request.body.readableBytesView, fields: ["snapshot", "validator", "format", "timeout", "settle"], example: example)
            guard let path = try body.string("snapshot") else {
                throw ControlBody.Problem(message: "snapshot is required: \(example)")
            }
            snapshot = try resolve(path, field: "snapshot")
            profile = try profileReference(try body.string("validator"), snapshot: snapshot)
            let name = try body.word("format", of: ReportFormat.all.map(\.name)) ?? "json"
            format = ReportFormat.named(name) ?? .json
            timeout = try body.seconds("timeout", maximum: Self.maximumTimeout)
            settle = try body.seconds("settle", maximum: Self.maximumTimeout)
        } catch {
            return .error(.badRequest, error.message)
        }
        let requests: [CapturedRequest]
        var reason: RequestWaitList.Reason?
        if timeout != nil || settle != nil {
            let outcome = await store.wait(
                inSession: id, settle: Self.duration(settle ?? Self.defaultSettle), timeout: Self.duration(timeout ?? Self.defaultTimeout)
            ) { [validatorsDirectory] requests in
                // Every expected entry paired with a request: nothing more is awaited. A
                // snapshot that cannot be read ends the wait at once; the answer says why.
                guard
                    let result = try? Validation.validate(
                        snapshotAt: snapshot, requests: requests, profile: profile, directory: validatorsDirectory)
                else { return true }
                return !result.entries.contains { $0.status == .missing }
            }
            guard let outcome else { return noSession(id) }
            requests = outcome.requests
            reason = outcome.reason
        } else {
            guard let held = store.requests(inSession: id) else { return noSession(id) }
            requests = held
        }
        let result: SnapshotResult
        do {
            result = try Validation.validate(snapshotAt: snapshot, requests: requests, profile: profile, directory: validatorsDirectory)
        } catch {
            return .error(.badRequest, error.description)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: Self.reportContentTypes[format.name] ?? "text/plain; charset=utf-8")
        headers.add(name: Self.passedHeader, value: result.passed ? "true" : "false")
        if let reason { headers.add(name: Self.waitHeader, value: reason.rawValue) }
        let response = Response(status: .ok, headers: headers, body: ByteBuffer(string: format.render([result])))
        return Self.attributed(response, store.unattributed(sinceSessionStarted: id) ?? 0)
    }

    /// A path a call names, resolved under the root.
    func resolve(_ path: String, field: String) throws(ControlBody.Problem) -> String {
        do {
            return try root.resolve(path, field: field)
        } catch {
            throw ControlBody.Problem(message: error.message)
        }
    }

    /// The profile reference to validate or record with: the call's `validator`, else the
    /// snapshot's own when it names a file. A reference that names files (`a/b.json`,
    /// `segment,Validators/app.json`) has each file resolved under the root; names are looked
    /// up in the server's validators directory, or built in. Nil: the snapshot's own names, or
    /// `default`.
    func profileReference(_ reference: String?, snapshot: String) throws(ControlBody.Problem) -> String? {
        var field = "validator"
        var reference = reference
        if reference == nil, FileManager.default.fileExists(atPath: snapshot) {
            // The snapshot is under the root; a file its `validator` names must be too.
            reference = (try? Snapshot.load(path: snapshot))?.validator
            field = "the snapshot's validator"
            guard let named = reference, Self.namesFiles(named) else { return nil }
        }
        guard let reference else { return nil }
        var resolved: [String] = []
        for item in reference.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard Self.namesFiles(item) else {
                resolved.append(item)
                continue
            }
            let file = try resolve(item, field: field)
            try confineExtends(ofProfileAt: file)
            resolved.append(file)
        }
        return resolved.joined(separator: ",")
    }

    /// Refuses a profile under the root that extends a file outside it: `Profile.load` would
    /// read that file too. A file named in `extends` is looked up as `Profile.load` does (an
    /// absolute path as it is, else in the validators directory); names are the server's own.
    /// - Parameters:
    ///   - path: a profile file already resolved under the root.
    ///   - depth: how many `extends` led here; a cycle stops at 16 (the loader reports it).
    private func confineExtends(ofProfileAt path: String, depth: Int = 0) throws(ControlBody.Problem) {
        guard depth < 16, let document = try? JSONDocument.load(path: path) else { return }
        let value = document.value["extends"]
        let names = value?.arrayValue?.compactMap(\.stringValue) ?? value?.stringValue.map { [$0] } ?? []
        for name in names where Self.namesFiles(name) {
            var target = name.hasPrefix("/") ? name : (validatorsDirectory as NSString).appendingPathComponent(name)
            if !target.hasPrefix("/") {
                target = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(target)
            }
            let file = try resolve(target, field: "\"extends\" in \(root.display(path)):")
            try confineExtends(ofProfileAt: file, depth: depth + 1)
        }
    }

    /// Whether a profile reference names a file rather than a profile, as `Profile.load` decides.
    private static func namesFiles(_ reference: String) -> Bool {
        reference.split(separator: ",").contains { $0.contains("/") || $0.hasSuffix(".json") }
    }
}
