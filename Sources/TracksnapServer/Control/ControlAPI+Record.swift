import Foundation
import NIOCore
import NIOHTTP1
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
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
    /// Without `snapshot`, nothing is written: the answer's `snapshotContent` is the recorded
    /// snapshot, recorded over the call's `snapshotContent` when it gives one (its matchers that
    /// still accept the traffic are kept); `mode` and `pending`, which are about a file, are
    /// refused there.
    ///
    /// Runs that are not the same flow, a run that captured nothing, a bad profile: 400 and
    /// nothing written. An unknown session, the first or a rerun: 404.
    func record(_ id: String, _ request: IncomingRequest) async throws(ControlError) -> ControlAnswer {
        let example =
            #"{"snapshot": "Snapshots/checkout.json", "validator": "segment", "mode": "all", "pending": false, "reruns": ["s2"]}"#
        let body = try ControlBody(
            request.body.readableBytesView,
            fields: ["snapshot", "snapshotContent", "validator", "mode", "pending", "reruns", "timeout", "settle"],
            example: example)
        if let path = try body.string("snapshot"), path.hasSuffix(".new.json") {
            throw .badRequest(
                "snapshot \"\(path)\" is a pending file; name the snapshot itself (X.json), with \"pending\": true to write X.new.json"
            )
        }
        let snapshot = try snapshotSource(body)
        if case .file = snapshot {
        } else {
            for field in ["mode", "pending"] where body.contains(field) {
                throw .badRequest(
                    "\(field) is about a snapshot file; without snapshot, the recorded snapshot is answered, not written"
                )
            }
        }
        let reference = try body.string("validator")
        let mode = RecordMode(rawValue: try body.word("mode", of: RecordMode.allCases.map(\.rawValue)) ?? "all") ?? .all
        let pending = try body.bool("pending") ?? false
        let reruns = try body.strings("reruns") ?? []
        let timeout = try body.seconds("timeout", maximum: Self.maximumTimeout)
        let settle = try body.seconds("settle", maximum: Self.maximumTimeout)

        // The first run may still be sending: record once its traffic has settled (`trafficWait`;
        // `"settle": 0` records what is there at once).
        let first: [CapturedRequest]
        if let wait = Self.trafficWait(timeout: timeout, settle: settle) {
            let outcome = await store.wait(inSession: id, settle: wait.settle, timeout: wait.timeout) { _ in false }
            guard let outcome else { throw noSession(id) }
            first = outcome.requests
        } else {
            guard let held = store.requests(inSession: id) else { throw noSession(id) }
            first = held
        }
        var runs = [first]
        let names = ([id] + reruns).map { "session \($0)" }
        for rerun in reruns {
            guard let requests = store.requests(inSession: rerun) else {
                throw .notFound("no open session \"\(rerun)\" (in reruns)")
            }
            runs.append(requests)
        }

        guard case .file(let file) = snapshot else {
            return try recordContent(runs, names: names, existing: snapshot, reference: reference, session: id)
        }
        let path = file.path
        let exists = FileManager.default.fileExists(atPath: path)
        let writes = mode != .never && !(mode == .missing && exists)
        if writes { try requireCapture(runs, names: names) }
        do throws(InputError) {
            if writes {
                // Only a snapshot is written, and only over a snapshot: never a tool's file.
                try workspace.checkWritable(path, field: "snapshot", extensions: [".json"])
                if exists, reference != nil { _ = try Snapshot.load(path: path) }
            }
            let existing = reference == nil && exists ? try Snapshot.load(path: path) : nil
            let outcome = try SnapshotRecorder(
                profile: reference, existing: existing, workspace: workspace.checking(path)
            ).record(
                runs: runs, snapshotAt: path, mode: mode, pending: pending, runNames: names)
            return .answer(.ok, answer(outcome))
        } catch {
            throw .badRequest(error, shownBy: workspace)
        }
    }

    /// Records without a file: the answer carries the snapshot.
    private func recordContent(
        _ runs: [[CapturedRequest]], names: [String], existing: SnapshotSource?, reference: String?, session id: String
    ) throws(ControlError) -> ControlAnswer {
        try requireCapture(runs, names: names)
        var document: JSONDocument?
        var own: Snapshot?
        if case .content(let snapshot, let given) = existing { (document, own) = (given, snapshot) }
        do throws(InputError) {
            let name = store.sessions.first { $0.id == id }?.name ?? id
            let recording = try SnapshotRecorder(profile: reference, existing: own, workspace: workspace).recording(
                from: runs, name: name, existing: document, file: SnapshotSource.contentName, runNames: names)
            return .answer(
                .ok,
                RecordAnswer(
                    recorded: true, requests: recording.snapshot["requests"]?.arrayValue?.count ?? 0,
                    events: recording.snapshot["events"]?.arrayValue?.count, generalized: recording.generalized,
                    snapshotContent: recording.snapshot))
        } catch {
            throw .badRequest(error, shownBy: workspace)
        }
    }

    /// Throws a 400 naming the first run that captured nothing.
    private func requireCapture(_ runs: [[CapturedRequest]], names: [String]) throws(ControlError) {
        guard let empty = runs.indices.first(where: { runs[$0].isEmpty }) else { return }
        throw .badRequest(
            "\(names[empty]) captured no request, so nothing was recorded: an empty snapshot would pass every later run while checking nothing"
        )
    }

    /// What a record call answers: the file (relative to the root), what was written, why not.
    private func answer(_ outcome: RecordOutcome) -> RecordAnswer {
        RecordAnswer(
            file: workspace.display(outcome.file), recorded: outcome.recorded, requests: outcome.requests,
            events: outcome.events, generalized: outcome.generalized, reason: outcome.reason)
    }
}
