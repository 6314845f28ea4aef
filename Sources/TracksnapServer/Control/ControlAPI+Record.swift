import Foundation
import TracksnapCore
import TracksnapRecording
import TracksnapValidation

extension ControlAPI {
    /// `POST sessions/{id}/record`: records the session's requests into a snapshot under the
    /// root, as `tracksnap record` does; each session in `reruns` is another run of the same
    /// flow (`--rerun`), and what differs between the runs is written as matchers.
    ///
    /// ```text
    /// POST /__tracksnap/sessions/s1/record {"snapshot": "Snapshots/checkout.json", "reruns": ["s2"]}
    /// → 200 {"file": "Snapshots/checkout.json", "recorded": true, "requests": 0, "events": 3,
    ///        "generalized": [{"path": "/events/0/properties/order_id", "reason": "differs between runs"}]}
    /// ```
    /// Runs that are not the same flow, a run that captured nothing, a bad profile: 400 and
    /// nothing written. An unknown session, the first or a rerun: 404.
    func record(_ id: String, _ request: IncomingRequest) async -> Response {
        let example = #"{"snapshot": "Snapshots/checkout.json", "validator": "segment", "mode": "all", "pending": false, "reruns": ["s2"]}"#
        let snapshot: String, reference: String?, mode: RecordMode, pending: Bool, reruns: [String]
        let timeout: Double?, settle: Double?
        do throws(ControlBody.Problem) {
            let body = try ControlBody(
                request.body.readableBytesView, fields: ["snapshot", "validator", "mode", "pending", "reruns", "timeout", "settle"],
                example: example)
            guard let path = try body.string("snapshot") else {
                throw ControlBody.Problem(message: "snapshot is required: \(example)")
            }
            guard !path.hasSuffix(".new.json") else {
                throw ControlBody.Problem(
                    message: "snapshot \"\(path)\" is a pending file; name the snapshot itself (X.json), with \"pending\": true to write X.new.json")
            }
            snapshot = try resolve(path, field: "snapshot")
            reference = try profileReference(try body.string("validator"), snapshot: snapshot)
            mode = RecordMode(rawValue: try body.word("mode", of: RecordMode.allCases.map(\.rawValue)) ?? "all") ?? .all
            pending = try body.bool("pending") ?? false
            reruns = try body.strings("reruns") ?? []
            timeout = try body.seconds("timeout", maximum: Self.maximumTimeout)
            settle = try body.seconds("settle", maximum: Self.maximumTimeout)
        } catch {
            return .error(.badRequest, error.message)
        }

        // The first run may still be sending: with a timeout or a settle time, record once its
        // traffic has been quiet that long.
        let first: [CapturedRequest]
        if timeout != nil || settle != nil {
            let outcome = await store.wait(
                inSession: id, settle: Self.duration(settle ?? Self.defaultSettle),
                timeout: Self.duration(timeout ?? Self.defaultTimeout)) { _ in false }
            guard let outcome else { return noSession(id) }
            first = outcome.requests
        } else {
            guard let held = store.requests(inSession: id) else { return noSession(id) }
            first = held
        }
        var runs = [first]
        let names = ([id] + reruns).map { "session \($0)" }
        for rerun in reruns {
            guard let requests = store.requests(inSession: rerun) else {
                return .error(.notFound, "no open session \"\(rerun)\" (in reruns)")
            }
            runs.append(requests)
        }

        let exists = FileManager.default.fileExists(atPath: snapshot)
        let writes = mode != .never && !(mode == .missing && exists)
        if writes, let empty = runs.indices.first(where: { runs[$0].isEmpty }) {
            return .error(
                .badRequest,
                "\(names[empty]) captured no request, so nothing was recorded: an empty snapshot would pass every later run while checking nothing")
        }
        do {
            var profileName = reference
            if profileName == nil, exists { profileName = try Snapshot.load(path: snapshot).validator }
            let profile = try Profile.load(profileName ?? "default", directory: validatorsDirectory)
            let outcome = try SnapshotRecorder(profile: profile).record(
                runs: runs, snapshotAt: snapshot, mode: mode, pending: pending, runNames: names)
            return .json(.ok, answer(outcome))
        } catch {
            return .error(.badRequest, error.description)
        }
    }

    /// What a record call answers: the file (relative to the root), what was written, why not.
    private func answer(_ outcome: RecordOutcome) -> JSONValue {
        var members: [String: JSONValue] = [
            "file": .string(root.display(outcome.file)),
            "recorded": .bool(outcome.recorded),
            "requests": .number(String(outcome.requests)),
            "generalized": .array(
                outcome.generalized.map { .object(["path": .string($0.path), "reason": .string($0.reason)]) }),
        ]
        if let events = outcome.events { members["events"] = .number(String(events)) }
        if let reason = outcome.reason { members["reason"] = .string(reason) }
        return .object(members)
    }
}
