import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapTestSupport

/// A path the call names is resolved once under the root, and the report names the file as the
/// call named it: not as the server found it (after a symbolic link), nor by its absolute path.
@Suite("Control API reports name files as the call named them", .tags(.network), .leftToMakeTest)
struct ControlPathNamesTests {
    static let plan = #"{"plan": 1, "events": [{"type": "track", "name": "Order Completed", "schema": {}}]}"#

    @Test(
        "a snapshot named through a link under the root is reported by the link's name; plans checked alone, and their unsent events, by their names under the root"
    )
    func namedAsCalled() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "root")
            try write(#"{"requests": []}"#, to: root.appending(path: "Snapshots/v2/checkout.json"))
            try FileManager.default.createSymbolicLink(
                atPath: root.appending(path: "Snapshots/checkout.json").path, withDestinationPath: "v2/checkout.json")
            try write(Self.plan, to: root.appending(path: "plans/shop.plan.json"))
            try await withServer(.init(root: root.path)) { _, port in
                let id = try await startSession(port)

                let body = #"{"snapshot": "Snapshots/checkout.json", "settle": 0}"#
                let snapshot = try await control(port, "POST", "sessions/\(id)/validate", body: body)
                #expect(snapshot.status == 200, "\(snapshot.text)")
                let report = try json(snapshot.text)
                #expect(
                    report["snapshots"]?.arrayValue?.first?["file"]?.stringValue == "Snapshots/checkout.json",
                    "\(snapshot.text)")

                let plans = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"plan": "plans/shop.plan.json", "settle": 0}"#)
                #expect(plans.status == 200, "\(plans.text)")
                let checked = try json(plans.text)["snapshots"]?.arrayValue?.first
                #expect(checked?["name"]?.stringValue == "plans/shop.plan.json", "\(plans.text)")
                // The planned event nothing sent names its plan as the call did, at its line.
                let unsent = checked?["plannedNotSent"]?.arrayValue?.first
                #expect(unsent?["plan"]?.stringValue == "plans/shop.plan.json", "\(plans.text)")
                #expect(unsent?["line"]?.doubleValue == 1, "\(plans.text)")
            }
        }
    }

    @Test(
        "an error about a profile, a cassette or a snapshot the call named by its path names the file under the root, never the server's own path to it"
    )
    func errorsNameFilesUnderTheRoot() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "root")
            try write(#"{"decoders": [3]}"#, to: root.appending(path: "Validators/broken.json"))
            try write(#"{"requests": [}"#, to: root.appending(path: "Snapshots/broken.json"))
            try write(#"{"interactions": 3}"#, to: root.appending(path: "cassettes/broken.json"))
            try await withServer(.init(root: root.path)) { _, port in
                let id = try await startSession(port)
                let calls: [(String, String, String)] = [
                    (
                        "sessions/\(id)/validate",
                        #"{"validator": "Validators/broken.json", "snapshotContent": {"requests": []}, "settle": 0}"#,
                        "Validators/broken.json:1:"
                    ),
                    (
                        "sessions/\(id)/validate", #"{"snapshot": "Snapshots/broken.json", "settle": 0}"#,
                        "Snapshots/broken.json:1:"
                    ),
                    ("sessions", #"{"cassette": "cassettes/broken.json"}"#, "cassettes/broken.json"),
                ]
                for (path, body, named) in calls {
                    let answer = try await control(port, "POST", path, body: body)
                    #expect(answer.status == 400, "\(body): \(answer.text)")
                    let message = try json(answer.text)["error"]?.stringValue ?? ""
                    #expect(message.hasPrefix(named), "\(body): \(message)")
                    #expect(!message.contains(directory.path), "\(body): \(message)")
                }
            }
        }
    }
}
