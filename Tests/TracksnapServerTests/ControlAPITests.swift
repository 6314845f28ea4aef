import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("The control API", .tags(.network), .leftToMakeTest)
struct ControlAPITests {
    @Test("health reports the counters")
    func health() async throws {
        try await withServer { _, port in
            _ = try await RawHTTP.send(port: port, target: "/e")
            _ = try await startSession(port)
            let response = try await control(port, "GET", "health")
            #expect(response.status == 200)
            let body = try json(response.text)
            #expect(body["status"]?.stringValue == "ok")
            #expect(body["captured"]?.doubleValue == 1)
            #expect(body["stored"]?.doubleValue == 1)
            #expect(body["sessions"]?.doubleValue == 1)
            #expect(body["dropped"]?.doubleValue == 0)
            #expect(body["rejected"]?.doubleValue == 0)
        }
    }

    @Test("a session records, waits for N, and ends with its requests")
    func sessionFlow() async throws {
        try await withServer { _, port in
            let id = try await startSession(port, name: "checkout")
            let listed = try json(try await control(port, "GET", "sessions").text)
            #expect(listed.arrayValue?.first?["name"]?.stringValue == "checkout")

            // The wait is asked before the traffic exists and must return as soon as it does:
            // its marker says it ended on the count, not on its deadline.
            async let waited = control(port, "GET", "sessions/\(id)/requests?count=2&timeout=120")
            _ = try await RawHTTP.send(port: port, target: "/e?ev=1")
            _ = try await RawHTTP.send(port: port, target: "/e?ev=2")
            let response = try await waited
            #expect(response.header("X-Tracksnap-Wait") == "complete")
            #expect(response.status == 200)
            #expect(
                try capturedRequests(response).map(\.url) == [
                    "http://127.0.0.1:\(port)/e?ev=1", "http://127.0.0.1:\(port)/e?ev=2",
                ])
            #expect(try capturedRequests(response).allSatisfy { $0.session == id })

            let ended = try await control(port, "DELETE", "sessions/\(id)")
            #expect(ended.status == 200)
            #expect(try capturedRequests(ended).count == 2)
            #expect(try await control(port, "GET", "sessions/\(id)/requests").status == 404)
            #expect(try await control(port, "DELETE", "sessions/\(id)").status == 404)
        }
    }

    @Test("a wait returns what is there when the timeout passes")
    func waitTimesOut() async throws {
        try await withServer { _, port in
            let id = try await startSession(port)
            _ = try await RawHTTP.send(port: port, target: "/only-one")
            let started = ContinuousClock.now
            let response = try await control(port, "GET", "sessions/\(id)/requests?count=5&timeout=0.3")
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(response.status == 200)
            #expect(response.header("X-Tracksnap-Wait") == "timed_out")
            #expect(try capturedRequests(response).map(\.url) == ["http://127.0.0.1:\(port)/only-one"])
        }
    }

    @Test(
        "bad requests are answered with an error naming the problem",
        arguments: [
            ("GET", "sessions/s99/requests", nil, 404, "s99"),
            ("DELETE", "sessions/s99", nil, 404, "s99"),
            ("POST", "sessions/s99/validate", #"{"snapshot":"x.json"}"#, 404, "s99"),
            ("GET", "sessions/s1/requests?count=many", nil, 400, "count"),
            ("GET", "sessions/s1/requests?count=1&timeout=soon", nil, 400, "timeout"),
            ("POST", "sessions", "not json", 400, "JSON"),
            ("GET", "nowhere", nil, 404, "nowhere"),
            ("PUT", "health", nil, 405, "PUT"),
        ] as [(String, String, String?, Int, String)])
    func badRequests(method: String, path: String, body: String?, status: Int, mention: String) async throws {
        try await withServer { _, port in
            _ = try await startSession(port)
            let response = try await control(port, method, path, body: body)
            #expect(response.status == status)
            #expect(response.header("Content-Type") == "application/json")
            let message = try #require(try json(response.text)["error"]?.stringValue)
            #expect(message.contains(mention))
        }
    }

    @Test("validate checks a session against a snapshot and returns the JSON report")
    func validate() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json")
            try Data(
                #"""
                {"name": "checkout", "requests": [
                  {"method": "GET", "url": "http://collect.example/e", "parameters": {"ev": "view"}},
                  {"method": "POST", "url": "http://collect.example/t", "body": {"event": "purchase", "total": 12.5}}
                ]}
                """#.utf8
            ).write(to: snapshot)
            try await withServer(.init(validatorsDirectory: directory.path, root: directory.path)) { _, port in
                let id = try await startSession(port)
                _ = try await RawHTTP.send(port: port, target: "/e?ev=view", host: "collect.example")
                _ = try await RawHTTP.send(
                    port: port, method: "POST", target: "/t", host: "collect.example",
                    body: Array(#"{"event":"purchase","total":12.5}"#.utf8))
                let passing = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "\#(snapshot.path)"}"#)
                #expect(passing.status == 200)
                let report = try json(passing.text)
                #expect(report["passed"] == .bool(true))
                #expect(report["version"]?.doubleValue == 1)
                #expect(report["findings"]?.arrayValue?.isEmpty == true)

                _ = try await RawHTTP.send(port: port, target: "/e?ev=scroll", host: "collect.example")
                let failing = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "\#(snapshot.path)"}"#)
                #expect(failing.status == 200)
                let failed = try json(failing.text)
                #expect(failed["passed"] == .bool(false))
                let codes = failed["findings"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
                #expect(codes == ["unexpected_event"])
            }
        }
    }

    @Test(
        "validate answers 400 for a snapshot or profile it cannot read",
        arguments: [
            (#"{"snapshot": "/nonexistent/checkout.json"}"#, "/nonexistent/checkout.json"),
            (#"{"snapshot": "SNAPSHOT", "validator": "no-such-profile"}"#, "no-such-profile"),
            (#"{"validator": "default"}"#, "snapshot"),
            ("[1, 2]", "snapshot"),
        ])
    func validateBadInput(body: String, mention: String) async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "s.json")
            try Data(#"{"requests": []}"#.utf8).write(to: snapshot)
            try await withServer(.init(validatorsDirectory: directory.path, root: directory.path)) { _, port in
                let id = try await startSession(port)
                let response = try await control(
                    port, "POST", "sessions/\(id)/validate",
                    body: body.replacingOccurrences(of: "SNAPSHOT", with: snapshot.path))
                #expect(response.status == 400)
                let message = try #require(try json(response.text)["error"]?.stringValue)
                #expect(message.contains(mention))
                #expect(try await control(port, "GET", "health").status == 200)
            }
        }
    }

    @Test("requests lists everything captured and reset forgets it")
    func requestsAndReset() async throws {
        try await withServer { server, port in
            let id = try await startSession(port)
            _ = try await RawHTTP.send(port: port, target: "/a")
            _ = try await RawHTTP.send(port: port, target: "/b")
            let all = try await control(port, "GET", "requests")
            #expect(try capturedRequests(all).map(\.id) == ["1", "2"])
            #expect(try await control(port, "POST", "reset").status == 200)
            #expect(try capturedRequests(try await control(port, "GET", "requests")).isEmpty)
            #expect(try capturedRequests(try await control(port, "GET", "sessions/\(id)/requests")).isEmpty)
            #expect(server.store.statistics.captured == 2)
        }
    }

    @Test("with a token, the control API demands it and captured traffic does not")
    func token() async throws {
        try await withServer(.init(token: "s3cret")) { server, port in
            let refused = try await control(port, "GET", "health")
            #expect(refused.status == 401)
            #expect(
                try await control(port, "GET", "health", headers: [("Authorization", "Bearer wrong")]).status == 401)
            #expect(
                try await control(port, "GET", "health", headers: [("Authorization", "Bearer s3cret")]).status == 200)
            #expect(try await RawHTTP.send(port: port, target: "/e").status == 200)
            #expect(server.store.requests().count == 1)
        }
    }
}
