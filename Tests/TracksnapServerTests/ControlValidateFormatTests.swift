import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("validate answers in every report format", .tags(.network), .leftToMakeTest)
struct ControlValidateFormatTests {
    @Test(
        "each format is rendered with its content type, and X-Tracksnap-Passed says the outcome",
        arguments: [
            ("json", "application/json", #""passed": false"#),
            ("text", "text/plain; charset=utf-8", #"/parameters/ev  "view"    "scroll"  value_mismatch"#),
            ("junit", "application/xml; charset=utf-8", "<testsuites"),
            ("github", "text/plain; charset=utf-8", "::error file="),
            ("markdown", "text/markdown; charset=utf-8", "| "),
            ("html", "text/html; charset=utf-8", "<!DOCTYPE html>"),
        ])
    func formats(format: String, contentType: String, mention: String) async throws {
        try await withTemporaryDirectory { directory in
            try write(
                #"{"requests": [{"method": "GET", "url": "http://collect.example/e", "parameters": {"ev": "view"}}]}"#,
                to: directory.appending(path: "s.json"))
            try await withServer(.init(root: directory.path)) { _, port in
                let id = try await startSession(port)
                _ = try await RawHTTP.send(port: port, target: "/e?ev=scroll", host: "collect.example")
                let response = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "s.json", "format": "\#(format)"}"#)
                #expect(response.status == 200)
                #expect(response.header("Content-Type") == contentType)
                #expect(response.header("X-Tracksnap-Passed") == "false")
                #expect(response.text.contains(mention), "\(response.text.prefix(600))")
            }
        }
    }

    @Test("an unknown format is refused with 400 naming the field")
    func unknownFormat() async throws {
        try await withTemporaryDirectory { directory in
            try write(#"{"requests": []}"#, to: directory.appending(path: "s.json"))
            try await withServer(.init(root: directory.path)) { _, port in
                let id = try await startSession(port)
                let response = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "s.json", "format": "pdf"}"#)
                #expect(response.status == 400)
                #expect(try json(response.text)["error"]?.stringValue?.contains("format must be one of") == true)
            }
        }
    }
}
