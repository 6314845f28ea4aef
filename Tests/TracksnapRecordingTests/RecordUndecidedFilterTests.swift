import Testing
import TracksnapRecording
import TracksnapTraffic
import TracksnapValidationTestSupport

/// The recording half of `UndecidedFilterTests` (validation's tests): the same filter stops a recording.
@Suite("Recording through a profile filter that cannot decide")
struct RecordUndecidedFilterTests {
    @Test("recording through a filter that cannot decide on a request stops with the request and the pattern")
    func recordingStops() throws {
        let profile = try recordingProfile(#"{"filter": {"path": {"$regex": "/(.*a){12}"}}}"#)
        let catastrophic = get("https://t.example.com/" + String(repeating: "a", count: 40) + "b", id: 1)
        #expect {
            _ = try SnapshotRecorder(profile: profile).snapshot(from: [catastrophic], name: "x")
        } throws: { error in
            "\(error)".contains("request #1 GET https://t.example.com/aaaa")
                && "\(error)".contains(#"pattern "/(.*a){12}""#)
        }
    }
}
