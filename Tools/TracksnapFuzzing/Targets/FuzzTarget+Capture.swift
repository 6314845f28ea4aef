import Foundation
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

extension FuzzTarget {
    /// Seeds for targets that read capture files: HAR from four tools, NDJSON from the server and the SDKs.
    static let captureSeeds = [
        "Tests/TracksnapTrafficTests/Fixtures/captures", "Tests/TracksnapCLITests/Fixtures/captures",
        "Tests/TracksnapDecodersTests/Fixtures", "Snapshots/demo/captures", "Snapshots/examples/captures",
    ]

    /// The capture reader (HAR and NDJSON, content decoding of bodies included): the requests it
    /// reads are written as NDJSON and read back the same.
    static let capture = FuzzTarget(
        "capture", "CaptureFile.read (HAR or NDJSON), then CaptureFile.ndjson and read again",
        seeds: captureSeeds
    ) { bytes throws(PropertyViolation) in
        guard let requests = try? CaptureFile.read(data: Data(bytes), file: "fuzz") else { return }
        for request in requests {
            _ = (request.host, request.path, request.parameters, request.mediaType, request.bodyBytes)
        }
        let written = CaptureFile.ndjson(requests)
        let again: [CapturedRequest]
        do {
            again = try CaptureFile.read(data: Data(written.utf8), file: "fuzz.ndjson")
        } catch {
            throw PropertyViolation(target: "capture", "the requests written as NDJSON do not read back: \(error)")
        }
        guard again == requests else {
            let first = zip(again, requests).first { $0 != $1 }
            throw PropertyViolation(
                target: "capture",
                "the requests written as NDJSON read back different (\(again.count) of \(requests.count)): \(String(describing: first))"
            )
        }
    }

    /// Recording: the requests a capture holds, recorded through the default profile, make a
    /// snapshot that validates against that same capture with no findings.
    static let record = FuzzTarget(
        "record", "CaptureFile.read, SnapshotRecorder under the default profile, then validate against the capture",
        seeds: captureSeeds
    ) { bytes throws(PropertyViolation) in
        guard let requests = try? CaptureFile.read(data: Data(bytes), file: "fuzz") else { return }
        let profile = Profile.builtInDefault
        let recorded: JSONValue
        do {
            recorded = try SnapshotRecorder(profile: profile).snapshot(from: requests, name: "fuzz")
        } catch {
            throw PropertyViolation(target: "record", "recording failed: \(error)")
        }
        let text = recorded.serialized(pretty: true)
        let snapshot: Snapshot
        do {
            snapshot = try Snapshot.parse(Array(text.utf8), file: "fuzz.json")
        } catch {
            throw PropertyViolation(
                target: "record", "the recorded snapshot does not read: \(error)\n\(text.prefix(2000))")
        }
        let result = SnapshotValidator().validate(snapshot, requests: requests, profile: profile)
        guard result.findings.isEmpty else {
            let findings = result.findings.prefix(5).map { "\($0.code): \($0.message)" }.joined(separator: "\n  ")
            throw PropertyViolation(
                target: "record", "the recorded snapshot fails its own capture:\n  \(findings)\n\(text.prefix(2000))")
        }
    }
}
