import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapServer
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// The stream read with a profile (`?profile=NAME`): each request's events are those the
/// profile's decoders read, as `validate` with that profile reads them, and its vendor rules are
/// the profile's; without it, the built-in decoders and every built-in rule.
@Suite("The inspector reads with a profile's decoders and rules", .tags(.network), .leftToMakeTest)
struct InspectorProfileTests {
    /// Claims what Segment's decoder claims (`/v1/track`) and reads it its own way: a `shout`
    /// named in capitals.
    static let decoder = VendorDecoder(
        vendor: "shouting", rule: "POST /v1/track", matches: { $0.path == "/v1/track" }
    ) { request throws(DecodeError) in
        guard let name = request.bodyJSON?["event"]?.stringValue else {
            throw DecodeError(vendor: "shouting", request: request.id, reason: "no event")
        }
        return [
            AnalyticsEvent(vendor: "shouting", type: "shout", name: name.uppercased(), request: request.id, index: 0)
        ]
    }

    /// The events of the one request the server holds, as the stream with `query` sends them.
    static func streamed(_ port: Int, query: String) async throws -> [JSONValue] {
        let reader = try StreamReader(port: port, token: nil, query: query)
        defer { reader.close() }
        // What the server holds comes before `live`.
        let text = try await reader.read(until: "event: live")
        // The data of the one `request` event: its line follows `event: request`.
        let lines = text.split(separator: "\n")
        let at = try #require(lines.firstIndex(of: "event: request"), "no request in \(text)")
        let line = try #require(lines.dropFirst(at + 1).first { $0.hasPrefix("data: ") })
        return try #require(try json(String(line.dropFirst("data: ".count)))["events"]?.arrayValue)
    }

    @Test(
        "with ?profile= naming a profile file under the root, the stream shows the events validate with that profile matches, read by the server's own decoder; without it, the built-in decoders' reading"
    )
    func profileDecoders() async throws {
        try await withTemporaryDirectory { directory in
            try write(
                #"{"decoders": ["shouting"], "order": "any"}"#, to: directory.appending(path: "Profiles/loud.json"))
            try write(
                #"{"events": [{"type": "shout", "name": "ORDER COMPLETED"}]}"#,
                to: directory.appending(path: "Snapshots/order.json"))
            var configuration = CaptureServer.Configuration(root: directory.path)
            configuration.extensions = Extensions(decoders: [Self.decoder])
            try await withServer(configuration) { _, port in
                let session = try await startSession(port)
                let body = #"{"type": "track", "event": "Order Completed", "properties": {"total": 12}}"#
                let sent = try await RawHTTP.send(
                    port: port, method: "POST", target: "/v1/track", headers: [("Content-Type", "application/json")],
                    body: Array(body.utf8))
                #expect(sent.status == 200)
                let validated = try await control(
                    port, "POST", "sessions/\(session)/validate",
                    body: #"{"snapshot": "Snapshots/order.json", "validator": "Profiles/loud.json", "settle": 0}"#)
                #expect(try json(validated.text)["passed"] == .bool(true), "\(validated.text)")

                let profiled = try await Self.streamed(port, query: "?profile=Profiles%2Floud.json")
                #expect(profiled.map { $0["vendor"] } == [.string("shouting")], "\(profiled)")
                #expect(profiled.map { $0["type"] } == [.string("shout")], "\(profiled)")
                #expect(profiled.map { $0["name"] } == [.string("ORDER COMPLETED")], "\(profiled)")
                let builtIn = try await Self.streamed(port, query: "")
                #expect(builtIn.map { $0["vendor"] } == [.string("segment")], "\(builtIn)")
                #expect(builtIn.map { $0["name"] } == [.string("Order Completed")], "\(builtIn)")
            }
        }
    }

    @Test(
        "with ?profile=, the vendor rules are the profile's at its severities: a limit it checks as a warning is among the warnings, a profile that checks none shows none"
    )
    func profileRules() async throws {
        try await withTemporaryDirectory { directory in
            try write(
                #"{"extends": "ga4", "rules": {"ga4.event_name_length": "warning"}}"#,
                to: directory.appending(path: "lenient.json"))
            let beyond = String(repeating: "b", count: 41)
            let body =
                #"{"client_id": "c1", "events": [{"name": "purchase", "params": {"value": 3}}, {"name": "\#(beyond)"}]}"#
            try await withServer(.init(validatorsDirectory: directory.path, root: directory.path)) { _, port in
                _ = try await RawHTTP.send(
                    port: port, method: "POST", target: "/mp/collect?measurement_id=G-TEST",
                    headers: [("Content-Type", "application/json")], body: Array(body.utf8))
                func told(_ event: JSONValue, _ field: String) -> [String] {
                    event[field]?.arrayValue?.compactMap { $0.stringValue?.components(separatedBy: ":").first } ?? []
                }
                let builtIn = try await Self.streamed(port, query: "")
                #expect(builtIn.count == 2)
                #expect(builtIn.map { told($0, "rules") } == [[], ["ga4.event_name_length"]], "\(builtIn)")
                #expect(builtIn.map { told($0, "warnings") } == [["ga4.purchase_items"], []], "\(builtIn)")
                let lenient = try await Self.streamed(port, query: "?profile=lenient")
                #expect(lenient.map { told($0, "rules") } == [[], []], "\(lenient)")
                #expect(
                    lenient.map { told($0, "warnings") } == [["ga4.purchase_items"], ["ga4.event_name_length"]],
                    "\(lenient)")
                let plain = try await Self.streamed(port, query: "?profile=default")
                #expect(plain.map { $0["vendor"] } == [.string("ga4"), .string("ga4")], "\(plain)")
                #expect(plain.allSatisfy { $0["rules"] == nil && $0["warnings"] == nil }, "\(plain)")
            }
        }
    }

    @Test("an unknown ?profile= is refused with 400 naming the parameter and its value, as validate refuses it")
    func unknownProfile() async throws {
        try await withServer { _, port in
            let session = try await startSession(port)
            let streamed = try await control(port, "GET", "requests/stream?profile=ga44")
            #expect(streamed.status == 400)
            let message = try json(streamed.text)["error"]?.stringValue ?? ""
            #expect(message.hasPrefix("query parameter profile=\"ga44\": "), "\(message)")
            let validated = try await control(
                port, "POST", "sessions/\(session)/validate",
                body: #"{"snapshotContent": {"requests": []}, "validator": "ga44", "settle": 0}"#)
            #expect(validated.status == 400)
            let refused = try json(validated.text)["error"]?.stringValue ?? ""
            #expect(refused.contains("ga44"), "\(refused)")
            #expect(message == "query parameter profile=\"ga44\": " + refused)
        }
    }
}
