import Testing
import TracksnapRecording
import TracksnapTraffic

@testable import TracksnapTesting

@Suite("Record modes: where they come from and what they do")
struct RecordModeTests {
    @Test(
        "the mode resolves from the argument, then the trait, then TRACKSNAP_RECORD, then CI",
        arguments: [
            (RecordMode?.none, RecordMode?.none, [String: String](), RecordMode.missing),
            (nil, nil, ["CI": "true"], .never),
            (nil, nil, ["CI": "1"], .never),
            (nil, nil, ["CI": "false"], .missing),
            (nil, nil, ["CI": ""], .missing),
            (nil, nil, ["TRACKSNAP_RECORD": "all"], .all),
            (nil, nil, ["TRACKSNAP_RECORD": " Failed "], .failed),
            (nil, nil, ["TRACKSNAP_RECORD": "missing", "CI": "true"], .missing),
            (nil, nil, ["TRACKSNAP_RECORD": "", "CI": "true"], .never),
            (nil, .failed, ["TRACKSNAP_RECORD": "all", "CI": "true"], .failed),
            (.all, .never, ["TRACKSNAP_RECORD": "never"], .all),
        ])
    func resolution(explicit: RecordMode?, configured: RecordMode?, environment: [String: String], expected: RecordMode)
        throws
    {
        #expect(
            try RecordMode.resolve(explicit: explicit, configured: configured, environment: environment) == expected)
    }

    @Test("a TRACKSNAP_RECORD that is not a mode is an error listing the modes")
    func badEnvironment() {
        let error = #expect(throws: RecordModeError.self) {
            try RecordMode.resolve(explicit: nil, configured: nil, environment: ["TRACKSNAP_RECORD": "yes"])
        }
        #expect(
            error?.description == "TRACKSNAP_RECORD=yes is not a record mode; use one of missing, all, failed, never")
    }

    @Test(
        "what an assertion does for each mode, with and without a snapshot on disk",
        arguments: [
            (RecordMode.missing, false, RecordDecision.record),
            (.missing, true, .validate(recordOnFailure: false)),
            (.never, false, .failMissing),
            (.never, true, .validate(recordOnFailure: false)),
            (.all, false, .record),
            (.all, true, .record),
            (.failed, false, .record),
            (.failed, true, .validate(recordOnFailure: true)),
        ])
    func decision(mode: RecordMode, exists: Bool, expected: RecordDecision) {
        #expect(RecordDecision(mode: mode, snapshotExists: exists) == expected)
    }
}
