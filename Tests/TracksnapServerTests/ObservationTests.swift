import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapServer

/// What the server reads of a captured request it reads once (`Observation`): the events the
/// built-in decoders find, for every inspector and every events wait; a validate wait and its
/// validation decode with the snapshot's profile, reading and keeping each decoding in the
/// request's observation (`CaptureStore.decodes`), so a decoder an inspector shares decodes a
/// request once for all of them.
@Suite("A captured request is decoded once per decoder set, however many read it", .tags(.network), .leftToMakeTest)
struct ObservationTests {
    @Test(
        "a request captured while two inspectors read the stream, a validate wait and an events wait are open is decoded once by the segment decoder, which the built-in decoders and the snapshot's profile share"
    )
    func decodedOnce() async throws {
        let marker = "decoded-once-" + UUID().uuidString
        DecoderCalls.watch(marker)
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "order.json")
            try #"{"validator": "segment", "events": [{"type": "track", "name": "Order Completed"}]}"#.write(
                to: snapshot, atomically: true, encoding: .utf8)
            try await withServer(.init(root: directory.path)) { _, port in
                let session = try await startSession(port)
                let readers = try [StreamReader(port: port, token: nil), StreamReader(port: port, token: nil)]
                defer { for reader in readers { reader.close() } }
                // The stream's first lines come once its reader follows what is recorded.
                for reader in readers { _ = try await reader.read(until: "retry: 1000") }
                let counting = Task {
                    try await control(port, "GET", "sessions/\(session)/requests?events=1&timeout=120")
                }
                let validating = Task {
                    try await control(
                        port, "POST", "sessions/\(session)/validate",
                        body: #"{"snapshot": "\#(snapshot.path)", "timeout": 120, "settle": 60}"#)
                }
                // No secret and no personal data: the inspectors' redaction leaves the request
                // as captured, so they read the events the events wait reads.
                let body = #"{"type": "track", "event": "Order Completed", "properties": {"total": 12}}"#
                let sent = try await RawHTTP.send(
                    port: port, method: "POST", target: "/v1/track?probe=\(marker)",
                    headers: [("Content-Type", "application/json")], body: Array(body.utf8))
                #expect(sent.status == 200)
                let counted = try await counting.value
                #expect(counted.header("X-Tracksnap-Wait") == "complete")
                let validated = try await validating.value
                #expect(validated.header("X-Tracksnap-Wait") == "complete")
                #expect(try json(validated.text)["passed"] == .bool(true), "\(validated.text)")
                for reader in readers {
                    let text = try await reader.read(until: marker)
                    #expect(text.contains("Order Completed"))
                }
            }
        }
        // The built-in decoders and the segment profile's both read it with the segment
        // decoder: once for what the server observes, the validate wait and its validation.
        let counts = DecoderCalls.count(marker)
        #expect(counts == ["segment": 1], "decoded \(counts)")
    }
}

extension ObservationTests {
    @Test(
        "a request captured while two inspectors read the stream with one profile and one without is decoded once by the profile's decoder and once by the built-in decoders"
    )
    func decodedOncePerProfile() async throws {
        let marker = "decoded-once-per-profile-" + UUID().uuidString
        DecoderCalls.watch(marker)
        try await withLoudProfile { _, port in
            let readers = try [
                StreamReader(port: port, token: nil, query: "?profile=loud.json"),
                StreamReader(port: port, token: nil, query: "?profile=loud.json"),
                StreamReader(port: port, token: nil),
            ]
            defer { for reader in readers { reader.close() } }
            for reader in readers { _ = try await reader.read(until: "event: live") }
            try await trackOrderCompleted(port: port, marker: marker)
            for reader in readers.prefix(2) { _ = try await reader.read(until: "ORDER COMPLETED") }
            // The built-in reader's line: the request's body names the event as sent, its event too.
            _ = try await readers[2].read(until: #""name":"Order Completed""#)
        }
        let counts = DecoderCalls.count(marker)
        #expect(counts == ["shouting": 1, "segment": 1], "decoded \(counts)")
    }
}

extension ObservationTests {
    @Test(
        "a request captured while an inspector reads the stream with a profile and a validate wait with the same profile is open is decoded once by the profile's decoder"
    )
    func decodedOnceForStreamAndWait() async throws {
        let marker = "decoded-once-stream-and-wait-" + UUID().uuidString
        DecoderCalls.watch(marker)
        try await withLoudProfile { directory, port in
            let snapshot = directory.appending(path: "order.json")
            try #"{"events": [{"type": "shout", "name": "ORDER COMPLETED"}]}"#.write(
                to: snapshot, atomically: true, encoding: .utf8)
            let session = try await startSession(port)
            let reader = try StreamReader(port: port, token: nil, query: "?profile=loud.json")
            defer { reader.close() }
            _ = try await reader.read(until: "event: live")
            let validating = Task {
                try await control(
                    port, "POST", "sessions/\(session)/validate",
                    body:
                        #"{"snapshot": "\#(snapshot.path)", "validator": "loud.json", "timeout": 120, "settle": 60}"#
                )
            }
            try await trackOrderCompleted(port: port, marker: marker)
            _ = try await reader.read(until: "ORDER COMPLETED")
            let validated = try await validating.value
            #expect(validated.header("X-Tracksnap-Wait") == "complete")
            #expect(try json(validated.text)["passed"] == .bool(true), "\(validated.text)")
        }
        // The stream, the wait (on the arrival) and the validation read one decoding.
        let counts = DecoderCalls.count(marker)
        #expect(counts["shouting"] == 1, "decoded \(counts)")
    }
}

extension ObservationTests {
    @Test(
        "a request captured while two inspectors read the stream with one protobuf profile is decoded once by its decoder, made once for both",
        .tags(.process))
    func decodedOnceByProtobufProfile() async throws {
        let marker = "decoded-once-protobuf-" + UUID().uuidString
        DecoderCalls.watch(marker)
        try await withTemporaryDirectory { directory in
            try compileDescriptorSet(
                "syntax = \"proto3\";\npackage shop.v1;\nmessage Checkout { string order_id = 1; }\n", named: "shop",
                in: directory)
            try #"""
            {"protobuf": {"descriptors": "shop.pb",
              "messages": [{"url": {"$regex": ".*/v1/checkout"}, "type": "shop.v1.Checkout"}]}}
            """#.write(to: directory.appending(path: "shop.json"), atomically: true, encoding: .utf8)
            try await withServer(.init(root: directory.path)) { _, port in
                let readers = try [
                    StreamReader(port: port, token: nil, query: "?profile=shop.json"),
                    StreamReader(port: port, token: nil, query: "?profile=shop.json"),
                ]
                defer { for reader in readers { reader.close() } }
                for reader in readers { _ = try await reader.read(until: "event: live") }
                var message = ProtobufEncoder()
                message.string(1, "order-1")
                let sent = try await RawHTTP.send(
                    port: port, method: "POST", target: "/v1/checkout?probe=\(marker)",
                    headers: [("Content-Type", "application/x-protobuf")], body: message.bytes)
                #expect(sent.status == 200)
                for reader in readers { _ = try await reader.read(until: "order-1") }
            }
        }
        let counts = DecoderCalls.count(marker)
        #expect(counts["protobuf"] == 1, "decoded \(counts)")
    }
}

@Suite("An events wait counts each request's events once")
struct EventTallyTests {
    static func requests(_ ids: ClosedRange<Int>) -> [CapturedRequest] {
        ids.map { CapturedRequest(id: String($0), method: "GET", url: "http://collect.example/e?n=\($0)") }
    }

    @Test(
        "asked after each arrival, a list that forgets its oldest and is then reset: each request counted once, the totals those of the list"
    )
    func followsTheList() {
        var tally = EventTally()
        var asked: [String] = []
        // Request n carries n events.
        let count = { (requests: [CapturedRequest]) -> Int in
            tally.count(requests) { request in
                asked.append(request.id)
                return Int(request.id) ?? 0
            }
        }
        let totals = (1...5).map { count(Self.requests(1...$0)) }
        #expect(totals == [1, 3, 6, 10, 15])
        // The list keeps 3: the oldest two forgotten as the sixth arrives.
        #expect(count(Self.requests(4...6)) == 15)
        #expect(count(Self.requests(4...6)) == 15)
        // A reset: what follows starts anew.
        #expect(count([]) == 0)
        #expect(count(Self.requests(7...8)) == 15)
        #expect(asked == (1...8).map(String.init), "\(asked)")
    }
}

extension ObservationTests {
    /// A server whose root holds `loud.json`, a profile of the `shouting` extension decoder
    /// (`InspectorProfileTests.decoder`), which it registers.
    fileprivate func withLoudProfile(_ body: (_ root: URL, _ port: Int) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            try #"{"decoders": ["shouting"]}"#.write(
                to: directory.appending(path: "loud.json"), atomically: true, encoding: .utf8)
            var configuration = CaptureServer.Configuration(root: directory.path)
            configuration.extensions = Extensions(decoders: [InspectorProfileTests.decoder])
            try await withServer(configuration) { _, port in try await body(directory, port) }
        }
    }

    /// Segment's `Order Completed` track, marked for `DecoderCalls`.
    fileprivate func trackOrderCompleted(port: Int, marker: String) async throws {
        let body = #"{"type": "track", "event": "Order Completed"}"#
        let sent = try await RawHTTP.send(
            port: port, method: "POST", target: "/v1/track?probe=\(marker)",
            headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        #expect(sent.status == 200)
    }
}
