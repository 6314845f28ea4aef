import Foundation
import Testing
import TracksnapCapture
import TracksnapJSON
import TracksnapServer
import TracksnapTestSupport
import TracksnapTraffic

@Suite(
    "The control API's answers, as the server writes them and the client reads them", .tags(.network), .leftToMakeTest)
struct ControlAnswerTests {
    @Test("health, sessions, ingest, record and an error decode with the shared types, as the wire always had them")
    func roundTrip() async throws {
        try await withTemporaryDirectory { directory in
            try await withServer(.init(validatorsDirectory: directory.path, root: directory.path)) { _, port in
                let client = TracksnapClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
                let session = try await client.startSession(name: "run 1")
                #expect(session.name == "run 1")
                _ = try await RawHTTP.send(port: port, target: "/e?ev=view")

                // The wire as the OpenAPI description and the Python client know it, byte for byte.
                #expect(
                    try await control(port, "GET", "health").text
                        == #"{"captured":1,"dropped":0,"intercept_failures":0,"rejected":0,"sessions":1,"status":"ok","stored":1,"unattributed":0}"#
                )
                #expect(try await control(port, "GET", "sessions").text == #"[{"id":"\#(session.id)","name":"run 1"}]"#)
                #expect(
                    try await control(port, "DELETE", "sessions/nope").text == #"{"error":"no open session \"nope\""}"#)

                #expect(
                    try await client.health()
                        == HealthAnswer(
                            captured: 1, dropped: 0, rejected: 0, sessions: 1, stored: 1, unattributed: 0,
                            interceptFailures: 0))
                #expect(try await client.sessions().map { [$0.id, $0.name] } == [[session.id, "run 1"]])
                #expect(try await session.add(try await session.requests()) == 1)

                let recording = try await session.record(snapshot: "home.json", settle: .zero)
                #expect(recording.file == "home.json")
                #expect(recording.recorded && recording.requests == 2 && recording.events == nil)
                #expect(recording.snapshotContent == nil && recording.reason == nil)
                let kept = try await session.record(snapshot: "home.json", mode: .missing, settle: .zero)
                #expect(!kept.recorded && kept.reason != nil)

                // Without a file, the answer carries the snapshot.
                let content = try await control(port, "POST", "sessions/\(session.id)/record", body: #"{"settle": 0}"#)
                let answer = try JSONValueCoder.decode(
                    RecordAnswer.self, from: JSONDocument.parse(Array(content.text.utf8), file: "answer"))
                #expect(answer.file == nil && answer.recorded && answer.requests == 2)
                #expect(answer.snapshotContent?["requests"]?.arrayValue?.count == 2)

                // A pending recording, listed with its diff, accepted.
                try await session.record(snapshot: "Snapshots/home.json", pending: true, settle: .zero)
                let listed = try await client.snapshots()
                #expect(listed.folder == "Snapshots" && !listed.truncated)
                #expect(listed.snapshots.map(\.file) == ["Snapshots/home.json"])
                #expect(listed.snapshots.first?.pending == "Snapshots/home.new.json")
                #expect(listed.snapshots.first?.diff?.hasPrefix("--- (no snapshot yet)\n") == true)
                #expect(
                    try await client.accept(snapshot: "Snapshots/home.json")
                        == PendingDecisionAnswer(
                            snapshot: "Snapshots/home.json", pending: "Snapshots/home.new.json", decision: "accept"))
                #expect(try await client.snapshots().snapshots.first?.exists == true)

                // The plans reach the server: one that is not there is refused, naming it.
                let missingPlan = await #expect(throws: TracksnapClientError.self) {
                    _ = try await session.validate(snapshot: "Snapshots/home.json", plans: ["Plans/nope.json"])
                }
                #expect(missingPlan?.status == 400)
                #expect(missingPlan?.message.contains("Plans/nope.json") == true, "\(String(describing: missingPlan))")

                let error = await #expect(throws: TracksnapClientError.self) {
                    _ = try await client.session(id: "nope").stop()
                }
                #expect(error?.status == 404)
                #expect(error?.message == #"no open session "nope""#)
            }
        }
    }
}
