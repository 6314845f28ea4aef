import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

/// The inspector's stream held to its contract: each event's data decodes with its
/// `RequestStream` type and encodes back to the same text (no member the type lacks), and
/// `Schemas/check.py --stream` (jsonschema, in the venv `make test` installs) accepts each against
/// the schema `x-events` names for it in `Schemas/control-api.openapi.json`.
@Suite(
    "The inspector's stream: its events' data are RequestStream's types and their schemas", .tags(.network),
    .leftToMakeTest)
struct StreamContractTests {
    static let check = PackagePaths.root.appending(path: "Schemas/check.py")

    /// Runs `check.py -v --stream` over `frames`, written as a stream file.
    static func check(_ frames: [StreamFrame]) async throws -> (result: ProcessResult, file: String) {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "stream.txt")
            try write("retry: 1000\n\n" + frames.map(\.text).joined(), to: file)
            return (try await runProcess(PackagePaths.python, [check.path, "-v", "--stream", file.path]), file.path)
        }
    }

    static func pythonMissing() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: PackagePaths.python.path) else {
            Issue.record("\(PackagePaths.python.path) is missing: run `make sdk-venv`, which installs jsonschema there")
            return true
        }
        return false
    }

    @Test(
        "a held request, a live one, their answers, live and reset decode as RequestStream's types, each back to the same text, and each is accepted by its schema",
        .tags(.process))
    func contract() async throws {
        let secret = "tok_5f4e3d2c1b0a"
        let text = try await withServer { server, port in
            let batch = #"{"writeKey": "wk_live_98765", "batch": [{"type": "track", "event": "Order Completed"}]}"#
            _ = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/batch",
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(secret)")],
                body: Array(batch.utf8))
            let reader = try StreamReader(port: port, token: nil)
            defer { reader.close() }
            _ = try await reader.read(until: "event: live")
            let beyond = String(repeating: "b", count: 41)
            _ = try await RawHTTP.send(
                port: port, method: "POST", target: "/mp/collect?measurement_id=G-TEST",
                headers: [("Content-Type", "application/json")],
                body: Array(#"{"client_id": "c1", "events": [{"name": "\#(beyond)"}]}"#.utf8))
            _ = try await reader.read(until: #""id":"2","status""#)
            server.store.reset()
            return try await reader.read(until: "event: reset")
        }
        #expect(!text.contains(secret) && !text.contains("wk_live_98765"))
        let frames = StreamFrame.all(in: text)
        #expect(frames.first?.event == "server" && frames.last?.event == "reset", "\(frames.map(\.event))")
        #expect(Set(frames.map(\.event)) == ["server", "request", "answer", "live", "reset"], "\(frames.map(\.event))")
        #expect(frames.allSatisfy { RequestStream.EventName(rawValue: $0.event) != nil })

        var requests: [RequestStream.Request] = []
        var answers: [RequestStream.Answer] = []
        for frame in frames {
            switch RequestStream.EventName(rawValue: frame.event) {
            case .server:
                let value = try frame.decode(RequestStream.Server.self)
                #expect(value == RequestStream.Server(maxRequests: nil, answersKept: 10_000, answerBytesKept: 64 << 20))
                #expect(Response.text(of: value) == frame.data)
            case .live:
                let value = try frame.decode(RequestStream.Live.self)
                #expect(value == RequestStream.Live(held: 1))
                #expect(Response.text(of: value) == frame.data)
            case .request:
                let value = try frame.decode(RequestStream.Request.self)
                #expect(frame.id == value.request.id)
                #expect(Response.text(of: value) == frame.data)
                requests.append(value)
            case .answer:
                let value = try frame.decode(RequestStream.Answer.self)
                #expect(Response.text(of: value) == frame.data)
                answers.append(value)
            case .reset:
                #expect(try frame.decode(JSONValue.self) == .object([:]))
            case .overflow, nil:
                Issue.record("unexpected \(frame.event): \(frame.data)")
            }
        }
        #expect(requests.map(\.request.id) == ["1", "2"])
        #expect(requests.first?.events.map(\.name) == ["Order Completed"])
        let authorization = requests.first?.request.headers.first { $0.name == "Authorization" }?.value
        #expect(authorization?.contains("[redacted]") == true, "\(String(describing: authorization))")
        #expect(requests.last?.events.first?.rules.count == 1, "\(requests)")
        #expect(answers.contains { $0.id == "2" } && answers.allSatisfy { ["1", "2"].contains($0.id) })
        #expect(answers.allSatisfy { $0.status == 200 && !$0.truncated })

        guard !Self.pythonMissing() else { return }
        let (result, file) = try await Self.check(frames)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for (index, frame) in frames.enumerated() {
            // check.py counts the leading `retry:` block as event 1.
            #expect(
                result.stdout.contains("ok   \(file) event \(index + 2) (\(frame.event)) is accepted"),
                "\(frame.event) was not checked: \(result.stdout)")
        }
    }

    @Test(
        "Schemas/check.py rejects an event whose data strays from its schema, and one the schema does not name",
        .tags(.process))
    func strays() async throws {
        guard !Self.pythonMissing() else { return }
        let live = StreamFrame(event: "live", data: Response.text(of: RequestStream.Live(held: 3)))
        let server = StreamFrame(
            event: "server",
            data: Response.text(of: RequestStream.Server(maxRequests: 5, answersKept: 5, answerBytesKept: 1024)))
        let strays = [
            StreamFrame(event: "live", data: live.data.replacingOccurrences(of: "held", with: "hold")),
            StreamFrame(event: "server", data: server.data.replacingOccurrences(of: #","max_requests":5"#, with: "")),
            StreamFrame(event: "answer", data: Response.text(of: RequestStream.Live(held: 3))),
            StreamFrame(event: "replay", data: "{}"),
        ]
        let (accepted, _) = try await Self.check([live, server])
        #expect(accepted.status == 0, "\(accepted.stdout)")
        let (result, file) = try await Self.check(strays)
        #expect(result.status == 1)
        for (index, frame) in strays.enumerated() {
            #expect(
                result.stdout.contains("FAIL \(file) event \(index + 2) (\(frame.event)) is accepted"),
                "\(frame.event) was accepted: \(result.stdout)")
        }
    }
}

/// One Server-Sent Event of the stream, as a reader read it.
struct StreamFrame: Sendable {
    var id: String? = nil
    var event: String
    var data: String

    /// The events in what a reader read: the HTTP head and the chunks' sizes left out.
    static func all(in text: some StringProtocol) -> [StreamFrame] {
        String(text).matches(of: /(?:id: ([^\r\n]*)\r?\n)?event: ([^\r\n]*)\r?\ndata: ([^\r\n]*)/).map {
            StreamFrame(id: $0.1.map(String.init), event: String($0.2), data: String($0.3))
        }
    }

    /// The event as the stream frames it.
    var text: String {
        (id.map { "id: \($0)\n" } ?? "") + "event: \(event)\ndata: \(data)\n\n"
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueCoder.decode(type, from: JSONDocument.parse(Array(data.utf8), file: "\(event) event"))
    }
}
