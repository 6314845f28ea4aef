import ArgumentParser
import Foundation
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

struct Record: CheckedCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a snapshot from captured traffic.",
        discussion: """
            Records the requests the profile's filter selects, in capture order, as sorted pretty \
            JSON written atomically; through a profile with "decoders", the events decoded from \
            them, plus the requests no decoder claimed (a request a decoder cannot decode stops \
            recording with exit 2). Secrets (Authorization, Cookie and Proxy-Authorization headers; \
            keys such as writeKey, api_key, token, secret, password; the profile's "redact" rules) \
            are written as matchers, never as values. Re-recording keeps every pattern that still \
            matches. Volatile values (UUIDs, timestamps, epoch times, random ids and tokens, a local \
            server's origin) are written as patterns and listed; with --rerun, values that differ \
            between the runs become patterns too (the profile's "record": {"generalize": false} \
            turns shape detection off, "literal": [...] keeps fields as captured). Exit 0 when done \
            (recorded or kept), 2 on bad input, including runs that are not the same flow.
            """
    )

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case all, missing, failed

        var recordMode: RecordMode {
            switch self {
            case .all: .all
            case .missing: .missing
            case .failed: .failed
            }
        }
    }

    @Argument(help: "The snapshot file to write.")
    var snapshot: String

    /// Words after the snapshot, which `record` takes none of: held so that `check` can say what
    /// they look like (`tracksnap record checkout.json run.har` names a capture without `--capture`).
    @Argument(help: .hidden)
    var after: [String] = []

    @OptionGroup var traffic: TrafficOptions

    @Option(
        help: ArgumentHelp(
            "Another run of the same flow (HAR or NDJSON; repeat for more): values that differ between the runs are recorded as patterns.",
            valueName: "file"))
    var rerun: [String] = []

    @Option(help: "all: always; missing: only when the file does not exist; failed: only when validation fails.")
    var mode: Mode = .all

    @Flag(help: "Write X.new.json beside X.json for review (tracksnap review, accept, reject).")
    var pending = false

    func check() throws {
        if let other = after.first(where: { CaptureFile.format(named: $0) == nil }) {
            throw ValidationError("unexpected argument \"\(other)\": record writes one snapshot, \(snapshot)")
        }
        try traffic.check(beside: after)
        guard after.isEmpty else {
            let named = after.map { "--capture \(Terminal.shellQuoted($0))" }.joined(separator: " ")
            throw ValidationError("\(after[0]) is a capture: name it with \(named)")
        }
        guard !snapshot.hasSuffix(".new.json") else {
            throw ValidationError(
                "\(snapshot) is a pending file; name the snapshot itself (X.json), with --pending to write X.new.json")
        }
    }

    func run() throws {
        var runs = [try traffic.requests()]
        for file in rerun {
            do {
                runs.append(try CaptureFile.read(path: file))
            } catch {
                Terminal.error(error.diagnostics.map(\.description).joined(separator: "\n"))
                throw Exit.badInput
            }
        }
        do {
            let reference = traffic.validator
            let existing =
                reference == nil && FileManager.default.fileExists(atPath: snapshot)
                ? try Snapshot.load(path: snapshot) : nil
            let recorder = try SnapshotRecorder(
                profile: reference, existing: existing, workspace: traffic.workspace.checking(snapshot))
            let outcome = try recorder.record(
                runs: runs, snapshotAt: snapshot, mode: mode.recordMode, pending: pending,
                runNames: [traffic.capture.joined(separator: " + ")] + rerun)
            if outcome.recorded {
                let requests = "\(outcome.requests) request\(outcome.requests == 1 ? "" : "s")"
                // An event-level snapshot names its events, and its requests only when some were not decoded.
                let count =
                    outcome.events.map { events in
                        "\(events) event\(events == 1 ? "" : "s")" + (outcome.requests > 0 ? ", " + requests : "")
                    } ?? requests
                print(
                    "recorded \(outcome.file): \(count)"
                        + (pending ? " (pending; tracksnap review, accept or reject it)" : ""))
                for line in Generalization.summary(outcome.generalized) { print(line) }
                if outcome.requests == 0, (outcome.events ?? 0) == 0 {
                    Terminal.error(
                        "\(outcome.file): note: "
                            + nothingSelected(captured: runs[0].count, profile: reference ?? existing?.validator))
                }
            } else {
                print("kept \(outcome.file): \(outcome.reason ?? "nothing to record")")
            }
        } catch {
            Terminal.error(error.description)
            throw Exit.badInput
        }
    }

    /// Why a snapshot that expects nothing was written: what a check that nothing is sent (before
    /// consent) records on purpose, and a mistyped profile or an empty capture by mistake.
    private func nothingSelected(captured: Int, profile: String?) -> String {
        let expectsNothing = "so the snapshot expects nothing to be sent"
        guard captured > 0 else {
            return "the capture holds no request, \(expectsNothing); to check a flow, capture it first"
        }
        var events = ["tracksnap", "events"] + traffic.capture
        if let profile { events += ["--validator", profile] }
        return "the profile \(profile ?? "default") selects none of the capture's \(captured) "
            + "request\(captured == 1 ? "" : "s"), \(expectsNothing); "
            + "\(events.map(Terminal.shellQuoted).joined(separator: " ")) shows what it selects"
    }
}
