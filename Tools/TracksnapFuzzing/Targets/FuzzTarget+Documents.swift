import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

extension FuzzTarget {
    /// The snapshot reader (tracksnap and Szimpla formats) and its lint.
    static let snapshot = FuzzTarget(
        "snapshot", "Snapshot.parse and Snapshot.lint, then Profile.unknownNames",
        seeds: [
            "Snapshots", "Tests/TracksnapCLITests/Fixtures/szimpla", "Tests/TracksnapTestingTests/Fixtures/Snapshots",
        ]
    ) { bytes throws(PropertyViolation) in
        guard let document = try? JSONDocument.parse(bytes, file: "Snapshots/fuzz.json") else { return }
        _ = Snapshot.lint(document: document)
        if let snapshot = try? Snapshot.parse(document: document) {
            _ = Profile.unknownNames(in: snapshot, workspace: Workspace(validators: "/nonexistent"))
            _ = snapshot.entries.map(\.summary)
        }
    }

    /// The profile reader and its lint; a profile it reads runs its filter over a few requests.
    static let profile = FuzzTarget(
        "profile", "Profile.parse and Profile.lint, then the profile's filter over sample requests",
        seeds: [
            "Validators", "Sources/TracksnapValidation/Profile/BuiltIn",
            "Tests/TracksnapTestingTests/Fixtures/Validators",
        ]
    ) { bytes throws(PropertyViolation) in
        // A file name in a folder that does not exist: `extends` finds only the built-in profiles.
        guard let document = try? JSONDocument.parse(bytes, file: "/nonexistent/fuzz.json") else { return }
        _ = Profile.lint(document: document)
        guard let profile = try? Profile.parse(document: document) else { return }
        _ = profile.select(sampleRequests)
        _ = profile.decoders.unknownNames
    }

    /// Requests of the kinds profiles select: a JSON batch, a form body, a GET with a query.
    static let sampleRequests = [
        CapturedRequest(
            id: "0", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                #"{"batch":[{"type":"track","event":"Order Completed","properties":{"total":12.5}}],"writeKey":"wk_123456"}"#
            )),
        CapturedRequest(
            id: "1", method: "POST", url: "https://api-js.mixpanel.com/track/?ip=1",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .text("data=eyJldmVudCI6InZpZXcifQ%3D%3D")),
        CapturedRequest(id: "2", method: "GET", url: "https://t.example.com/collect?ev=screen_view&cb=123&tag=a+b"),
    ]
}
