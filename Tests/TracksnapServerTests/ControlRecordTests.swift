import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

/// One run of a checkout as a client with ids of its own sends it: a fresh UUID, order id and
/// timestamp each run, the same event names and constants.
private func sendCheckout(_ port: Int, session: String, events: [String] = ["Checkout Started", "Order Completed"])
    async throws
{
    let order = "o-\(Int.random(in: 10_000...99_999))"
    for event in events {
        let body =
            #"{"event": "\#(event)", "message_id": "\#(UUID().uuidString.lowercased())", "order_id": "\#(order)", "sent_at": "\#(Date().ISO8601Format())", "revenue": 12.5}"#
        let response = try await RawHTTP.send(
            port: port, method: "POST", target: "/collect", host: "collect.example",
            headers: [("Content-Type", "application/json"), ("X-Tracksnap-Session", session)], body: Array(body.utf8))
        #expect(response.status == 200)
    }
}

@Suite("The control API records snapshots", .tags(.network), .leftToMakeTest)
struct ControlRecordTests {
    @Test("record from two sessions of the same flow learns what varies, and the snapshot passes a third run")
    func recordAcrossRuns() async throws {
        try await withTemporaryDirectory { directory in
            try await withServer(.init(root: directory.path)) { _, port in
                let first = try await startSession(port)
                let second = try await startSession(port)
                try await sendCheckout(port, session: first)
                try await sendCheckout(port, session: second)
                let response = try await control(
                    port, "POST", "sessions/\(first)/record",
                    body: #"{"snapshot": "Snapshots/checkout.json", "reruns": ["\#(second)"]}"#)
                #expect(response.status == 200, "\(response.text)")
                let answer = try json(response.text)
                #expect(answer["file"]?.stringValue == "Snapshots/checkout.json")
                #expect(answer["recorded"] == .bool(true))
                #expect(answer["requests"]?.doubleValue == 2)
                let generalized = answer["generalized"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
                #expect(generalized.contains { $0.hasSuffix("/message_id") }, "\(generalized)")
                #expect(generalized.contains { $0.hasSuffix("/order_id") }, "\(generalized)")
                #expect(generalized.contains { $0.hasSuffix("/sent_at") }, "\(generalized)")
                #expect(
                    !generalized.contains { $0.hasSuffix("/revenue") || $0.hasSuffix("/event") },
                    "constants stay literal: \(generalized)")
                let written = try String(
                    contentsOf: directory.appending(path: "Snapshots/checkout.json"), encoding: .utf8)
                #expect(written.contains("\"Order Completed\""))

                _ = try await control(port, "DELETE", "sessions/\(first)")
                _ = try await control(port, "DELETE", "sessions/\(second)")
                let third = try await startSession(port)
                try await sendCheckout(port, session: third)
                let check = try await control(
                    port, "POST", "sessions/\(third)/validate", body: #"{"snapshot": "Snapshots/checkout.json"}"#)
                #expect(try json(check.text)["passed"] == .bool(true), "\(check.text)")

                // The learnt snapshot still fails a real change: an event dropped.
                _ = try await control(port, "DELETE", "sessions/\(third)")
                let fourth = try await startSession(port)
                try await sendCheckout(port, session: fourth, events: ["Checkout Started"])
                let changed = try await control(
                    port, "POST", "sessions/\(fourth)/validate", body: #"{"snapshot": "Snapshots/checkout.json"}"#)
                #expect(try json(changed.text)["passed"] == .bool(false))
            }
        }
    }

    @Test("runs that are not the same flow are refused with the first difference, and nothing is written")
    func notTheSameFlow() async throws {
        try await withTemporaryDirectory { directory in
            try await withServer(.init(root: directory.path)) { _, port in
                let first = try await startSession(port)
                let second = try await startSession(port)
                try await sendCheckout(port, session: first)
                try await sendCheckout(port, session: second, events: ["Checkout Started"])
                let response = try await control(
                    port, "POST", "sessions/\(first)/record",
                    body: #"{"snapshot": "checkout.json", "reruns": ["\#(second)"]}"#)
                #expect(response.status == 400)
                let message = try #require(try json(response.text)["error"]?.stringValue)
                #expect(message.contains("not the same flow"), "\(message)")
                #expect(message.contains("session \(second)"), "\(message)")
                #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "checkout.json").path))
            }
        }
    }

    @Test(
        "modes and pending decide what is written",
        arguments: [
            ("missing", false, true, false, "checkout.json"),
            ("never", false, false, false, "checkout.json"),
            ("all", true, true, true, "checkout.new.json"),
        ])
    func modes(mode: String, pending: Bool, exists: Bool, recorded: Bool, file: String) async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json")
            if exists { try write(#"{"requests": []}"#, to: snapshot) }
            try await withServer(.init(root: directory.path)) { _, port in
                let id = try await startSession(port)
                try await sendCheckout(port, session: id)
                let response = try await control(
                    port, "POST", "sessions/\(id)/record",
                    body: #"{"snapshot": "checkout.json", "mode": "\#(mode)", "pending": \#(pending)}"#)
                #expect(response.status == 200, "\(response.text)")
                let answer = try json(response.text)
                #expect(answer["recorded"] == .bool(recorded))
                #expect(answer["file"]?.stringValue == file)
                #expect((answer["reason"] != nil) == !recorded)
                #expect(
                    FileManager.default.fileExists(atPath: directory.appending(path: "checkout.new.json").path)
                        == pending)
                #expect(FileManager.default.fileExists(atPath: snapshot.path) == exists)
            }
        }
    }

    @Test(
        "bad record calls are answered 4xx with an error naming the field",
        arguments: [
            ("s99", #"{"snapshot": "a.json"}"#, 404, "s99"),
            ("SELF", #"{"snapshot": "a.json", "reruns": ["s99"]}"#, 404, "s99"),
            ("SELF", #"{"snapshot": "a.json", "mode": "sometimes"}"#, 400, "mode"),
            ("SELF", #"{"snapshot": "a.json", "pending": "yes"}"#, 400, "pending"),
            ("SELF", #"{"snapshot": "a.json", "reruns": "s2"}"#, 400, "reruns"),
            ("SELF", #"{"snapshot": 3}"#, 400, "snapshot"),
            ("SELF", #"{"mode": "all"}"#, 400, "snapshot"),
            ("SELF", #"{"snapshot": "a.json", "colour": "red"}"#, 400, "colour"),
            ("SELF", #"{"snapshot": "a.new.json"}"#, 400, "pending"),
            ("SELF", #"{"snapshot": "a.json", "validator": "no-such-profile"}"#, 400, "no-such-profile"),
            ("SELF", "{", 400, "JSON"),
            // "settle": 0, or the call would wait 10 s for traffic that never comes.
            ("EMPTY", #"{"snapshot": "a.json", "settle": 0}"#, 400, "captured no request"),
        ] as [(String, String, Int, String)])
    func badInput(session: String, body: String, status: Int, mention: String) async throws {
        try await withTemporaryDirectory { directory in
            try await withServer(.init(root: directory.path)) { _, port in
                let id = try await startSession(port)
                let empty = try await startSession(port)
                try await sendCheckout(port, session: id)
                let target = session == "SELF" ? id : session == "EMPTY" ? empty : session
                let response = try await control(port, "POST", "sessions/\(target)/record", body: body)
                #expect(response.status == status, "\(response.text)")
                #expect(response.header("Content-Type") == "application/json")
                let message = try #require(try json(response.text)["error"]?.stringValue)
                #expect(message.contains(mention), "\(message)")
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing is written")
                #expect(try await control(port, "GET", "health").status == 200)
            }
        }
    }
}
